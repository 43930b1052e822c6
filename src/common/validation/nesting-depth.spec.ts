import { MAX_NESTING_DEPTH, tooDeepPath } from './nesting-depth.js';

const nested = (depth: number, leaf: unknown = 'x') => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('tooDeepPath', () => {
  it('passes values up to the limit, scalars and wide values', () => {
    expect(tooDeepPath({ vars: nested(MAX_NESTING_DEPTH - 1) })).toBeUndefined();
    expect(tooDeepPath('text')).toBeUndefined();
    expect(tooDeepPath({ list: Array.from({ length: 10_000 }, (_, i) => ({ i })) })).toBeUndefined();
  });

  it('names the first segments of the path past it, without overflowing at any depth', () => {
    expect(tooDeepPath({ vars: nested(MAX_NESTING_DEPTH, {}) })).toBe('vars.a.a…');
    expect(tooDeepPath({ subscribers: [{ id: 'x' }, { data: nested(200_000) }] })).toBe('subscribers[1].data…');
    expect(tooDeepPath(nested(5, {}), 5)).toBe('a.a.a…');
  });
});

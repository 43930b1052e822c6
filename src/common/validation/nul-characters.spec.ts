import { nulCharacterPath } from './nul-characters.js';

describe('nulCharacterPath', () => {
  it('names the first field, item, map value or key that holds a NUL', () => {
    expect(nulCharacterPath({ subject: 'ok', body: 'a\u0000b' })).toBe('body');
    expect(nulCharacterPath({ subscribers: ['a', 'b\u0000'] })).toBe('subscribers[1]');
    expect(nulCharacterPath({ data: { plan: { tier: 'x\u0000' } } })).toBe('data.plan.tier');
    expect(nulCharacterPath({ vars: { 'k\u0000': 1 } })).toBe('vars (one of its keys)');
    expect(nulCharacterPath('a\u0000')).toBe('the value');
  });

  it('passes clean values, other control characters and very deep nesting', () => {
    expect(nulCharacterPath({ a: ['x', 1, true, null, { b: 'tab\there' }] })).toBeUndefined();
    let deep: unknown = 'end';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulCharacterPath(deep)).toBeUndefined();
  });
});

import { InvalidatedCache } from './invalidated-cache.js';

describe('InvalidatedCache', () => {
  let now = 0;
  const cache = () => new InvalidatedCache<string>(1_000, 3, () => now);
  const loader = (value: string | undefined, tag = 'p1') => {
    const calls = { n: 0 };
    const load = async () => {
      calls.n++;
      return value === undefined ? undefined : { value, tag };
    };
    return { load, calls };
  };
  beforeEach(() => (now = 0));

  it('serves a hit until its TTL, then loads again', async () => {
    const c = cache();
    const { load, calls } = loader('a');
    expect(await c.get('k', load)).toBe('a');
    now = 999;
    expect(await c.get('k', load)).toBe('a');
    expect(calls.n).toBe(1);
    now = 1_000;
    expect(await c.get('k', load)).toBe('a');
    expect(calls.n).toBe(2);
  });

  it('never stores a miss', async () => {
    const c = cache();
    const { load, calls } = loader(undefined);
    expect(await c.get('k', load)).toBeUndefined();
    expect(await c.get('k', load)).toBeUndefined();
    expect(calls.n).toBe(2);
    expect(c.size).toBe(0);
  });

  it('drop(tag) forgets that tag’s entries only', async () => {
    const c = cache();
    await c.get('k1', loader('a', 'p1').load);
    await c.get('k2', loader('b', 'p2').load);
    c.drop('p1');
    const again = loader('a2', 'p1');
    expect(await c.get('k1', again.load)).toBe('a2');
    expect(again.calls.n).toBe(1);
    expect(await c.get('k2', loader('never').load)).toBe('b');
  });

  it('does not store a load that was in flight when a drop happened', async () => {
    const c = cache();
    let release!: () => void;
    const slow = c.get('k', async () => {
      await new Promise<void>((r) => (release = r));
      return { value: 'stale', tag: 'p1' };
    });
    await Promise.resolve();
    c.drop('p1');
    release();
    expect(await slow).toBe('stale'); // the request that read it may use it once
    const fresh = loader('fresh');
    expect(await c.get('k', fresh.load)).toBe('fresh');
    expect(fresh.calls.n).toBe(1);
  });

  it('keeps at most maxEntries, dropping the oldest; TTL 0 stores nothing', async () => {
    const c = cache();
    for (const k of ['a', 'b', 'c', 'd']) await c.get(k, loader(k).load);
    expect(c.size).toBe(3);
    const a = loader('a');
    await c.get('a', a.load);
    expect(a.calls.n).toBe(1);
    const off = new InvalidatedCache<string>(0, 3, () => now);
    await off.get('k', loader('x').load);
    expect(off.size).toBe(0);
  });
});

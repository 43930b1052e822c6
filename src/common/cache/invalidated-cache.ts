/**
 * A small read-through cache for rows read on every request and changed rarely (a project by
 * its API key, a project's caps), bounded twice: an entry is never served after `ttlMs`, and
 * `drop(tag)` removes every entry of a tag (a project id) at once. The owner calls `drop` when
 * it changes the rows, and also sends a signal so that other processes drop theirs
 * (SignalsService); when a signal is lost, the TTL is the bound.
 *
 * A load that started before a drop is not stored (epochs): otherwise a request that read the
 * old row just before a revocation would put it back for a whole TTL. Misses (undefined) are
 * not stored, so unknown keys cannot fill the cache; past `maxEntries` the oldest entry goes.
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, { value: V; tag: string; expiresAt: number }>();
  private epoch = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string, load: () => Promise<{ value: V; tag: string } | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.value;
    if (hit) this.entries.delete(key);
    const epoch = this.epoch;
    const loaded = await load();
    if (!loaded) return undefined;
    if (this.ttlMs > 0 && epoch === this.epoch) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value: loaded.value, tag: loaded.tag, expiresAt: this.now() + this.ttlMs });
    }
    return loaded.value;
  }

  /** Forgets every entry of `tag`, and any load in flight (whatever its tag). */
  drop(tag: string): void {
    this.epoch++;
    for (const [key, entry] of this.entries) if (entry.tag === tag) this.entries.delete(key);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

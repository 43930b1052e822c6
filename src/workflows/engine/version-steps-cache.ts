import type { WorkflowStep } from '../workflow-steps.js';

/** Versions kept at most (a worker's batch rarely spans more workflows). */
export const VERSION_CACHE_ENTRIES = 64;
/** Bytes of steps (as JSON text) kept, all entries together: a version may be 5 MB. */
export const VERSION_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The steps of workflow versions by id, least recently used evicted past either bound.
 * Versions never change once written, so an entry is never stale: the engine reads a version's
 * steps (up to 5 MB) from the database once instead of at every pass of every run.
 */
export class VersionStepsCache {
  private readonly entries = new Map<string, { steps: WorkflowStep[]; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = VERSION_CACHE_ENTRIES,
    private readonly maxBytes = VERSION_CACHE_BYTES,
  ) {}

  get(id: string): WorkflowStep[] | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    // Map keeps insertion order: re-inserting makes this the most recently used.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.steps;
  }

  set(id: string, steps: WorkflowStep[], bytes: number): void {
    if (bytes > this.maxBytes) return;
    const old = this.entries.get(id);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(id);
    }
    this.entries.set(id, { steps, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

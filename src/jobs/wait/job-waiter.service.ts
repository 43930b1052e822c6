import { type BeforeApplicationShutdown, Injectable, type OnModuleInit } from '@nestjs/common';
import { Db } from '../../database/db.js';
import { SignalsService } from '../../database/signals/signals.service.js';
import type { JobStatus } from '../../domain/job.types.js';
import { REGISTER_WAITERS } from './wait.sql.js';

/** Signalled when a job somebody waits for reaches a final state; the key is the job id. */
export const JOB_END_TOPIC = 'job.end';

/** A job is final when no worker will touch it again on its own. */
export const FINAL_STATUSES: ReadonlySet<JobStatus | string> = new Set(['sent', 'failed', 'cancelled', 'bounced']);

/** Re-read at least this often while the listener is up (a signal can be lost), and faster while it is not. */
const FALLBACK_POLL_MS = 1_000;
const FALLBACK_POLL_UNLISTENED_MS = 250;

export interface WaitResult<T> {
  rows: T[];
  /** The time ran out (or the process is shutting down) before every job was final. */
  timedOut: boolean;
}

/**
 * Holds a request until jobs reach a final state or its time is up, on any replica.
 *
 * Protocol (no lost wake-up across replicas): the waiter registers in job_waiters and *then*
 * reads the jobs; a worker writes the outcome and *then* takes the registrations (wait.sql.ts
 * TAKE_WAITED_JOBS) and signals `job.end`. Either the waiter's read sees the outcome, or the
 * worker's take sees the registration. Signals are still hints: each wake-up re-reads, and a
 * fallback poll covers a signal lost to a listener reconnection.
 */
@Injectable()
export class JobWaiter implements OnModuleInit, BeforeApplicationShutdown {
  /** Wake-up functions of the requests waiting in this process, by job id. */
  private readonly byJob = new Map<string, Set<() => void>>();
  private readonly all = new Set<() => void>();
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly signals: SignalsService,
  ) {}

  onModuleInit(): void {
    this.signals.subscribe(JOB_END_TOPIC, {
      received: (jobId) => this.byJob.get(jobId)?.forEach((wake) => wake()),
      resync: () => this.all.forEach((wake) => wake()),
    });
  }

  /** Shutdown: every waiting request answers now with what it has (before HTTP closes). */
  beforeApplicationShutdown(): void {
    this.stopping = true;
    this.all.forEach((wake) => wake());
  }

  /**
   * Reads `read()` until every row is final (per `isFinal`) or `timeoutMs` passes. `ids` are
   * the jobs `read` returns; `first`, when given, is a read already made (skips registering
   * if it is all final).
   */
  async waitFor<T>(
    ids: readonly string[],
    timeoutMs: number,
    read: () => Promise<T[]>,
    isFinal: (row: T) => boolean,
    first?: T[],
  ): Promise<WaitResult<T>> {
    const done = (rows: T[]) => rows.length >= new Set(ids).size && rows.every(isFinal);
    if (first && (done(first) || timeoutMs <= 0 || this.stopping)) return { rows: first, timedOut: !done(first) };
    if (ids.length === 0) return { rows: [], timedOut: false };
    const deadline = Date.now() + timeoutMs;
    let rung = false;
    let ring: () => void = () => (rung = true);
    const wake = () => ring();
    this.track(ids, wake);
    try {
      // Registration commits before the first read below (see the class comment). Without
      // signals nobody would be told: polling alone, no registration.
      if (this.signals.enabled)
        await this.db.exec(REGISTER_WAITERS, [[...new Set(ids)], Math.ceil(timeoutMs / 1000) + 1]);
      for (;;) {
        rung = false;
        const rows = await read();
        if (done(rows)) return { rows, timedOut: false };
        const left = deadline - Date.now();
        if (left <= 0 || this.stopping) return { rows, timedOut: true };
        if (rung) continue;
        const poll = this.signals.listening ? FALLBACK_POLL_MS : FALLBACK_POLL_UNLISTENED_MS;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(finish, Math.min(left, poll));
          function finish() {
            clearTimeout(timer);
            resolve();
          }
          ring = finish;
        });
        ring = () => (rung = true);
      }
    } finally {
      this.untrack(ids, wake);
    }
  }

  private track(ids: readonly string[], wake: () => void): void {
    this.all.add(wake);
    for (const id of ids) {
      let set = this.byJob.get(id);
      if (!set) this.byJob.set(id, (set = new Set()));
      set.add(wake);
    }
  }

  private untrack(ids: readonly string[], wake: () => void): void {
    this.all.delete(wake);
    for (const id of ids) {
      const set = this.byJob.get(id);
      set?.delete(wake);
      if (set?.size === 0) this.byJob.delete(id);
    }
  }
}

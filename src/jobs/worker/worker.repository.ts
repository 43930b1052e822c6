import { Injectable } from '@nestjs/common';
import { MARK_SENT_TO_INBOX } from '../sql/inbox-finalise.sql.js';
import { Db, type Sql } from '../../database/db.js';
import { CLAIM_JOBS } from '../sql/claim.sql.js';
import { MARK_FAILED, MARK_RETRY, MARK_SENT, MARK_SKIPPED, RECORD_ATTEMPTS, REQUEUE } from '../sql/finalise.sql.js';
import { PURGE_FINISHED, REAP_EXPIRED_LEASES } from '../sql/maintenance.sql.js';
import type { ClaimedJob } from './claimed-job.js';
import type { Outcomes } from './outcomes.js';

/** The worker's SQL: claim, finalise, reap, purge. One round trip per batch, never per job. */
@Injectable()
export class WorkerRepository {
  constructor(private readonly db: Db) {}

  /** Paused lanes are skipped: whole channels, and project lanes given as `project/channel`. */
  claim(
    limit: number,
    pausedChannels: readonly string[],
    pausedProjectChannels: readonly string[] = [],
  ): Promise<ClaimedJob[]> {
    return this.db.rows<ClaimedJob>(CLAIM_JOBS, [limit, pausedChannels, pausedProjectChannels]);
  }

  /** Writes every outcome kind present, one statement each, concurrently (disjoint rows). */
  async finalise(o: Outcomes): Promise<void> {
    const writes: Promise<number>[] = [];
    const write = <T extends { id: string; attempts: number }>(
      sql: Sql,
      rows: T[],
      values: (row: T) => Record<string, unknown>,
    ) => {
      if (rows.length === 0) return;
      const byId: Record<string, Record<string, unknown>> = {};
      for (const row of rows) {
        const v = values(row);
        v.a = row.attempts;
        byId[row.id] = v;
      }
      writes.push(this.db.exec(sql, [byId]));
    };
    write(MARK_SENT, o.sent, (r) => ({ p: r.provider, m: r.providerMessageId }));
    write(MARK_SKIPPED, o.skipped, (r) => ({ e: r.reason }));
    write(MARK_RETRY, o.retry, (r) => ({ p: r.provider, e: r.error, t: r.runAt.toISOString() }));
    write(MARK_FAILED, o.failed, (r) =>
      r.bounced ? { p: r.provider, e: r.error, b: 1 } : { p: r.provider, e: r.error },
    );
    write(REQUEUE, o.requeue, (r) => ({ e: r.error, t: r.runAt.toISOString() }));
    // In-app: marked sent and written to the inbox by one statement (issue 3b).
    write(MARK_SENT_TO_INBOX, o.inbox, (r) => ({
      p: r.provider,
      m: r.message.messageId,
      s: r.message.subscriberId,
      ti: r.message.title,
      b: r.message.body,
      ic: r.message.icon,
      u: r.message.url,
      d: r.message.data,
    }));
    const attempts = attemptRows(o);
    if (attempts.length) writes.push(this.db.exec(RECORD_ATTEMPTS, [JSON.stringify(attempts)]));
    await Promise.all(writes);
  }

  async reap(leaseSeconds: number, limit: number): Promise<{ id: string; status: string }[]> {
    return this.db.rows(REAP_EXPIRED_LEASES, [leaseSeconds, limit]);
  }

  purge(finishedBefore: Date | null, failedBefore: Date | null, limit: number): Promise<number> {
    return this.db.exec(PURGE_FINISHED, [finishedBefore, failedBefore, limit]);
  }
}

/**
 * The attempts worth a line in a job's timeline: transient failures, final failures, calls
 * refused for rate and jobs put off with a reason. A job released unsent (no error, e.g. its
 * lane was already paused) made no attempt and writes nothing.
 */
export function attemptRows(
  o: Outcomes,
): { j: string; a: number; o: string; c: boolean; p: string | null; e: string | null; t: string | null }[] {
  return [
    ...o.retry.map((r) => ({
      j: r.id,
      a: r.attempts,
      o: 'retry',
      c: true,
      p: r.provider,
      e: r.error,
      t: r.runAt.toISOString(),
    })),
    ...o.failed.map((r) => ({ j: r.id, a: r.attempts, o: 'failed', c: true, p: r.provider, e: r.error, t: null })),
    ...o.requeue
      .filter((r) => r.rateLimited || r.error !== null)
      .map((r) => ({
        j: r.id,
        a: r.attempts,
        o: r.rateLimited ? 'rate_limited' : 'deferred',
        c: false,
        p: r.provider ?? null,
        e: r.error,
        t: r.runAt.toISOString(),
      })),
  ];
}

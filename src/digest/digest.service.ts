import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';

export interface QueueSnapshot {
  pending: number;
  processing: number;
  retry: number;
  /** Age in seconds of the oldest due job per priority band (urgent < 50, normal < 80, bulk). */
  oldestWaitingSeconds: { urgent: number | null; normal: number | null; bulk: number | null };
}

/** Live jobs by status and the oldest due job per band; served by jobs_claim_idx and jobs_processing_idx. */
const QUEUE_SNAPSHOT = `
  SELECT
    count(*) FILTER (WHERE status = 'pending')    AS pending,
    count(*) FILTER (WHERE status = 'processing') AS processing,
    count(*) FILTER (WHERE status = 'retry')      AS retry,
    extract(epoch FROM now() - min(run_at) FILTER (WHERE status IN ('pending','retry') AND run_at <= now() AND priority < 50)) AS urgent,
    extract(epoch FROM now() - min(run_at) FILTER (WHERE status IN ('pending','retry') AND run_at <= now() AND priority >= 50 AND priority < 80)) AS normal,
    extract(epoch FROM now() - min(run_at) FILTER (WHERE status IN ('pending','retry') AND run_at <= now() AND priority >= 80)) AS bulk
  FROM jobs WHERE status IN ('pending','processing','retry')`;

/**
 * The operator's view of the instance. The operators issue builds the ranked digest of
 * findings on top of these readings.
 */
@Injectable()
export class DigestService {
  constructor(private readonly db: Db) {}

  async queueSnapshot(): Promise<QueueSnapshot> {
    const row = await this.db.one<Record<string, string | null>>(QUEUE_SNAPSHOT);
    const n = (v: string | null | undefined) => (v === null || v === undefined ? null : Math.round(Number(v)));
    return {
      pending: Number(row?.pending ?? 0),
      processing: Number(row?.processing ?? 0),
      retry: Number(row?.retry ?? 0),
      oldestWaitingSeconds: { urgent: n(row?.urgent), normal: n(row?.normal), bulk: n(row?.bulk) },
    };
  }
}

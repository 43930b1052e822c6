import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.js';
import type { JobOutcomeDto } from '../dto/job-outcome.dto.js';
import type { SendResponseDto } from '../dto/send.dto.js';
import type { JobRow } from '../../domain/job.types.js';
import { JobsService } from '../jobs.service.js';
import { FINAL_STATUSES, JobWaiter } from './job-waiter.service.js';
import { FIND_OUTCOMES } from './wait.sql.js';

interface OutcomeRow {
  id: string;
  channel: string;
  status: string;
  attempts: number;
  provider: string | null;
  providerMessageId: string | null;
  error: string | null;
  sentAt: Date | null;
  nextRetryAt: Date | null;
  runAt: Date;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** `wait` on the API: hold a send's answer, or a job read, until the outcome is known. */
@Injectable()
export class OutcomeWaitService {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobsService,
    private readonly waiter: JobWaiter,
  ) {}

  /** POST /v1/send with `wait`: the response plus each job's state when the wait ended. */
  async afterSend(projectId: string, response: SendResponseDto, waitMs: number): Promise<SendResponseDto> {
    const ids = response.job_ids;
    const read = () => this.db.rows<OutcomeRow>(FIND_OUTCOMES, [ids, projectId]);
    const { rows, timedOut } = await this.waiter.waitFor(ids, waitMs, read, (r) => FINAL_STATUSES.has(r.status));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      ...response,
      outcomes: ids.filter((id) => byId.has(id)).map((id) => present(byId.get(id)!)),
      timed_out: timedOut,
    };
  }

  /** GET /v1/jobs/:id?wait=: the job once final, or as it is when the time is up. */
  async job(id: string, projectId: string, waitMs: number): Promise<JobRow> {
    const first = await this.jobs.get(id, projectId);
    const read = async () => [await this.jobs.get(id, projectId)];
    const { rows } = await this.waiter.waitFor([id], waitMs, read, (j) => FINAL_STATUSES.has(j.status), [first]);
    return rows[0];
  }
}

function present(r: OutcomeRow): JobOutcomeDto {
  return {
    id: r.id,
    channel: r.channel,
    status: r.status,
    final: FINAL_STATUSES.has(r.status),
    attempts: r.attempts,
    provider: r.provider,
    provider_message_id: r.providerMessageId,
    error: r.error,
    sent_at: iso(r.sentAt),
    next_retry_at: r.status === 'retry' ? iso(r.nextRetryAt ?? r.runAt) : null,
  };
}

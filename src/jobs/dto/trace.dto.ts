import { IsOptional } from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';
import { IsRfc3339 } from '../../common/validation/validators.js';
import { TRACE_DEFAULT_RANGE_DAYS, TRACE_MAX_LIMIT, TRACE_MAX_RANGE_DAYS } from '../trace/trace-limits.js';
import { JobAttemptDto } from './job.dto.js';
import { IsProjectId } from '../../projects/dto/project-id.validator.js';
import { IsPageSize } from '../../common/pagination/page-size.js';

export { TRACE_DEFAULT_RANGE_DAYS, TRACE_MAX_LIMIT, TRACE_MAX_RANGE_DAYS };

/** GET /v1/admin/trace: one recipient (an address or a subscriber id) and a time range. */
export class TraceQueryDto {
  /**
   * An address as jobs carry it: email (case-insensitive), E.164 phone, chat id or webhook. Give this or subscriber_id.
   * @example "jane@example.com"
   */
  @IsOptional()
  @IsText({ min: 1, max: 320 })
  recipient?: string;

  /**
   * A subscriber id: its messages on every channel, and those sent to its addresses. Give this or recipient.
   * @example "user-42"
   */
  @IsOptional()
  @IsText({ pattern: /^[^\s]{1,255}$/, message: 'must be a subscriber id: 1–255 characters without spaces' })
  subscriber_id?: string;

  /**
   * Operators only: one project (default: every project). A project key always reads its own project.
   * @example "acme"
   */
  @IsOptional()
  @IsProjectId()
  project_id?: string;

  /**
   * From (RFC 3339); default 7 days before `until`. At most 31 days before `until`.
   * @example "2026-11-29T00:00:00Z"
   */
  @IsOptional()
  @IsRfc3339()
  since?: string;

  /**
   * Until (RFC 3339, exclusive); default now.
   * @example "2026-11-30T00:00:00Z"
   */
  @IsOptional()
  @IsRfc3339()
  until?: string;

  /** Messages at most, newest first (default 50, at most 200). @example 50 */
  @IsPageSize(TRACE_MAX_LIMIT)
  limit?: number;
}

export class TraceSubscriberDto {
  /** @example "acme" */
  project_id: string;
  /** @example "user-42" */
  id: string;
  /** Masked for operator keys. @example "j***@example.com" */
  email: string | null;
  /** Masked for operator keys. @example "+3361******78" */
  phone: string | null;
}

/** An active suppression of one of the recipient's addresses, with the evidence behind it. */
export class TraceSuppressionDto {
  /** @example "0f6c9e0a-6f7e-4d0c-8f3e-2a7b9c1d4e5f" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /** @example "email" */
  channel: string;
  /** Masked for operator keys. @example "j***@example.com" */
  address: string;
  /** @example "bounce" */
  reason: string;
  /** @example "all" */
  scope: string;
  /** Who created it: api_key, admin, worker, resend-webhook… @example "resend-webhook" */
  source: string;
  /** @example "mailbox does not exist" */
  detail: string | null;
  /** Provider facts behind it (event type, bounce type, provider code…). */
  evidence: Record<string, unknown>;
  /** The job whose bounce or complaint made it. */
  source_job_id: string | null;
  /** @example "2026-11-30T10:00:06.000Z" */
  created_at: string;
}

export class TraceRecipientDto {
  /** The addresses searched: the one given and those of the subscribers found (masked for operator keys). */
  addresses: string[];
  /** The subscribers the recipient resolved to (by id, email or phone). */
  subscribers: TraceSubscriberDto[];
  /** Active suppressions of those addresses, with their evidence. */
  suppressions: TraceSuppressionDto[];
}

/** A trace shows a job's attempts as the job itself does (GET /v1/jobs/{id}). */
export class TraceAttemptDto extends JobAttemptDto {}

export class TraceProviderEventDto {
  /** @example "postmark" */
  provider: string;
  /** @example "Bounce" */
  type: string;
  /** delivered, bounced, soft_bounced, complained, opened, clicked or other. @example "bounced" */
  kind: string;
  /** @example "2026-11-30T10:00:06.000Z" */
  occurred_at: string;
  /** @example "bounced (HardBounce): mailbox not found" */
  error: string | null;
}

export class TraceWaitingDto {
  /** lane_paused, scheduled, retry, deferred or due. @example "lane_paused" */
  holds: 'lane_paused' | 'scheduled' | 'retry' | 'deferred' | 'due';
  /** @example "2026-11-30T11:00:00.000Z" */
  until: string | null;
  /** @example "Lane email:resend is paused until …" */
  reason: string;
  /** @example "email:resend" */
  lane: string | null;
}

export class TraceEventDto {
  /** @example "2026-11-30T10:00:00.000Z" */
  at: string;
  /** created, attempt_retry, sent, delivered, bounced… @example "sent" */
  event: string;
  detail: string | null;
  actor: string | null;
}

/** One message notifyd was asked to send the recipient, and what decided its fate. */
export class TraceMessageDto {
  /** job: it was queued; refusal: admission refused it and no job exists. @example "job" */
  kind: string;
  /** The job's id, or null for a refusal. @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  job_id: string | null;
  /** @example "acme" */
  project_id: string;
  /** @example "email" */
  channel: string;
  /** Masked for operator keys; empty when the target had no address. @example "j***@example.com" */
  recipient: string;
  /** @example "user-42" */
  subscriber_id: string | null;
  /** When notifyd was asked. @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** The job's status, or `refused`. @example "bounced" */
  status: string;
  /**
   * refused (not queued, or dropped by a rule at send time), waiting, sending, sent, delivered,
   * bounced, complained, failed or cancelled.
   * @example "bounced"
   */
  verdict: string;
  /** The rule behind a refusal: suppressed, opted_out, capped, invalid_address, no_address, unknown_subscriber, not_configured, skipped_at_send. @example "suppressed" */
  rule: string | null;
  /** What decided it, in words. */
  reason: string;
  /** Who asked: a project key's hint, admin, mcp or workflow. @example "sk_acme_…1f2e" */
  created_by: string | null;
  /** @example "resend" */
  provider: string | null;
  /** @example "4ef9a417-02e9-4d39-ad75-9611e0fcc33c" */
  provider_message_id: string | null;
  /** @example 1 */
  attempts: number;
  /** What holds a waiting job, and until when. */
  waiting: TraceWaitingDto | null;
  /** Every attempt that did not end in a send, with the provider's answer (job_attempts). */
  attempt_log: TraceAttemptDto[];
  /**
   * How many older attempts attempt_log leaves out (counted up to 10 000): a trace shows each
   * job's newest 50. Absent when none was left out; the job's own view (GET /v1/jobs/{id}, for
   * operators GET /v1/admin/jobs/{id}) lists its first 200.
   * @example 12
   */
  attempt_log_omitted?: number;
  /** Provider webhook evidence: delivered, bounced, complained… */
  provider_events: TraceProviderEventDto[];
  /**
   * How many older provider events provider_events leaves out (counted up to 10 000): a trace
   * shows each job's newest 50. Absent when none was left out; the job's own view
   * (GET /v1/jobs/{id}, for operators GET /v1/admin/jobs/{id}) lists its first 100.
   * @example 3
   */
  provider_events_omitted?: number;
  /** For a refusal by suppression: the suppression, with its evidence. */
  suppression: TraceSuppressionDto | null;
  /** The job's moments in order (as job_timeline tells them). */
  events: TraceEventDto[];
}

export class TraceDto {
  recipient: TraceRecipientDto;
  /** Newest first. */
  messages: TraceMessageDto[];
  /** @example 3 */
  count: number;
  /** How many messages per verdict. @example {"delivered": 2, "refused": 1} */
  verdicts: Record<string, number>;
  /** True when more messages matched than `limit`: narrow the time range. */
  truncated: boolean;
  /** @example "2026-11-23T10:00:00.000Z" */
  since: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  until: string;
}

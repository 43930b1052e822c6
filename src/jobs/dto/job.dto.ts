import { IsIn, IsOptional, Matches } from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';
import { CHANNELS } from '../../domain/channels.js';
import { IsRfc3339 } from '../../common/validation/validators.js';
import { JOB_STATUSES } from '../../domain/job.types.js';
import { IsProjectId } from '../../projects/dto/project-id.validator.js';
import { IsPageSize } from '../../common/pagination/page-size.js';
import { IsTopic } from '../../common/validation/is-topic.js';

export class EmailEnvelopeDto {
  /** @example ["jane@example.com"] */
  to: string[];
  /** @example [] */
  cc: string[];
  /** @example null */
  reply_to: string | null;
}

export class RenderedContentDto {
  /**
   * kept: rendered by the worker (a template, or inline Liquid) and kept; as_sent: the inline
   * content held no Liquid, so the job's own fields are what was sent; redacted: the project
   * keeps no content (`settings.rendered_content` = "redact"); not_rendered: not rendered yet
   * (queued, or failed before rendering).
   * @example "kept"
   */
  status: string;
  /** @example "Bonjour Amélie" */
  subject: string | null;
  /** @example "Bonjour Amélie, bienvenue !" */
  body: string | null;
  /** @example null */
  body_html: string | null;
  /**
   * Whether the parts were cut to fit 64 KiB together.
   * @example false
   */
  truncated: boolean;
  /**
   * When the worker rendered it (its last attempt); null unless kept.
   * @example "2026-11-30T10:00:01.000Z"
   */
  rendered_at: string | null;
}

export class JobDto {
  /** @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  id: string;
  /** @example "email" */
  channel: string;
  /** @example "user_123" */
  subscriber_id: string | null;
  /** @example "jane@example.com" */
  recipient: string;
  /** @example null */
  template_id: string | null;
  /** @example null */
  topic: string | null;
  /**
   * pending, processing, retry, sent, failed, cancelled or bounced.
   * @example "sent"
   */
  status: string;
  /** @example 50 */
  priority: number;
  /** @example "2026-11-30T10:00:00.000Z" */
  scheduled_at: string;
  /**
   * When a job in `retry` becomes due again.
   * @example null
   */
  next_retry_at: string | null;
  /** @example 1 */
  attempts: number;
  /** @example 5 */
  max_attempts: number;
  /** @example "resend" */
  provider: string | null;
  /** @example "4ef9a417-02e9-4d39-ad75-9611e0fcc33c" */
  provider_message_id: string | null;
  /**
   * Why the last attempt failed, if it did.
   * @example null
   */
  error: string | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /**
   * Who queued it: the hint of the project key that sent it, admin, mcp (an operator's MCP
   * call) or workflow; null for jobs queued before notifyd recorded it.
   * @example "sk_shop_…1f2e"
   */
  created_by: string | null;
  /** @example "2026-11-30T10:00:01.000Z" */
  sent_at: string | null;
  /** @example null */
  delivered_at: string | null;
  /** @example null */
  bounced_at: string | null;
  /** @example null */
  opened_at: string | null;
  /** @example null */
  clicked_at: string | null;
  /**
   * When the recipient reported the message as spam (provider complaint feedback).
   * @example null
   */
  complained_at: string | null;
  /** Delivery evidence reported by the provider (webhooks), oldest first. */
  provider_events: JobProviderEventDto[];
  /**
   * The attempts that did not end in a send, oldest first: retried after a transient error,
   * failed, rate-limited or deferred (the last two did not use an attempt). A sent attempt is
   * the job itself (provider, provider_message_id, sent_at).
   */
  attempt_log: JobAttemptDto[];
  /** Email only: who the message was addressed to. */
  email_envelope: EmailEnvelopeDto | null;
  /** What was sent: the rendered subject and body (bounded, kept as long as the job). */
  rendered: RenderedContentDto;
}

/** One attempt of a job that did not end in a send. */
export class JobAttemptDto {
  /** @example "2026-11-30T10:00:02.000Z" */
  at: string;
  /**
   * The attempt number its claim gave it.
   * @example 1
   */
  attempt: number;
  /**
   * retry (transient error, due again), failed, rate_limited (the lane paused; no attempt used) or deferred (no attempt used).
   * @example "retry"
   */
  outcome: string;
  /**
   * False when it did not use one of the job's attempts.
   * @example true
   */
  counted: boolean;
  /** @example "resend" */
  provider: string | null;
  /** @example "Resend 503 internal_server_error" */
  error: string | null;
  /**
   * When the job was due again (retry, rate_limited, deferred).
   * @example "2026-11-30T10:00:32.000Z"
   */
  next_at: string | null;
}

/** One provider event about the job (from provider webhooks). */
export class JobProviderEventDto {
  /** @example "resend" */
  provider: string;
  /**
   * The provider's own event name.
   * @example "email.bounced"
   */
  type: string;
  /**
   * What it meant for the job: delivered, bounced, soft_bounced, complained, opened, clicked or other.
   * @example "bounced"
   */
  kind: string;
  /** @example "2026-11-30T10:00:03.000Z" */
  occurred_at: string;
  /** @example "4ef9a417-02e9-4d39-ad75-9611e0fcc33c" */
  provider_message_id: string | null;
  /** @example ["jane@example.com"] */
  recipients: string[];
  /** @example "bounced (Permanent/General): mailbox does not exist" */
  error: string | null;
}

export class CancelJobResponseDto {
  /** @example true */
  success: boolean;
  /** @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  id: string;
}

export class RetriedJobDto {
  /** @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /** @example "email" */
  channel: string;
  /** @example "retry" */
  status: string;
}

export class RetryJobResponseDto {
  /** @example true */
  success: boolean;
  job: RetriedJobDto;
}

/** A domain as recipients carry it: labels of letters, digits and hyphens (IDN as punycode or UTF-8). */
export const RECIPIENT_DOMAIN =
  /^(?=.{1,253}$)[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62})(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62}))*$/u;

export class AdminJobSearchQueryDto {
  /** @example "acme" */
  @IsOptional()
  @IsProjectId()
  project_id?: string;

  /** @example "failed" */
  @IsOptional()
  @IsIn(JOB_STATUSES, { message: `must be one of ${JOB_STATUSES.join(', ')}` })
  status?: string;

  /** @example "email" */
  @IsOptional()
  @IsIn(CHANNELS, { message: `must be one of ${CHANNELS.join(', ')}` })
  channel?: string;

  /**
   * Exact recipient, case-insensitive.
   * @example "jane@example.com"
   */
  @IsOptional()
  @IsText({ min: 1, max: 2048 })
  recipient?: string;

  /** @example "orders" */
  @IsOptional()
  @IsTopic()
  topic?: string;

  /**
   * The recipient's domain (after the @), case-insensitive: finds one caller's misspelt domain.
   * @example "gmial.con"
   */
  @IsOptional()
  @Matches(RECIPIENT_DOMAIN, { message: 'must be a domain such as example.com (the part after the @)' })
  recipient_domain?: string;

  /**
   * Who queued the jobs: a project key's hint as jobs show it (sk_shop_…1f2e), admin, mcp or workflow.
   * @example "sk_shop_…1f2e"
   */
  @IsOptional()
  @IsText({ min: 1, max: 80 })
  created_by?: string;

  /**
   * Only jobs created since (RFC 3339); default 7 days ago.
   * @example "2026-11-29T00:00:00Z"
   */
  @IsOptional()
  @IsRfc3339()
  since?: string;

  /** @example 50 */
  @IsPageSize(500)
  limit?: number;

  /** The `next_cursor` of the previous page, unchanged: the next (older) page. */
  @IsOptional()
  @IsText({ max: 300 })
  cursor?: string;
}

export class AdminJobSummaryDto {
  /** @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /** @example "email" */
  channel: string;
  /** @example "failed" */
  status: string;
  /**
   * Masked.
   * @example "j***@example.com"
   */
  recipient: string;
  /** @example "Your order has shipped" */
  subject: string | null;
  /** @example null */
  topic: string | null;
  /** @example 50 */
  priority: number;
  /** @example 5 */
  attempts: number;
  /** @example 5 */
  max_attempts: number;
  /** @example "resend" */
  provider: string | null;
  /** @example null */
  provider_message_id: string | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  scheduled_at: string;
  /** @example null */
  sent_at: string | null;
  /** @example null */
  next_retry_at: string | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example "HTTP 422: invalid recipient" */
  error: string | null;
  /** Who queued it: a project key's hint, admin, mcp or workflow (null before it was recorded). @example "sk_shop_…1f2e" */
  created_by: string | null;
}

export class AdminJobListDto {
  jobs: AdminJobSummaryDto[];
  /** @example 1 */
  count: number;
  /**
   * Pass as `cursor` for the next page; null on the last page.
   * @example null
   */
  next_cursor: string | null;
}

export class SendTestRequestDto {
  /** @example "acme" */
  @IsProjectId()
  project_id: string;

  /** @example "email" */
  @IsIn(CHANNELS, { message: `must be one of ${CHANNELS.join(', ')}` })
  channel: string;

  /** @example "ops@acme.example" */
  @IsText({ min: 1, max: 2048 })
  to: string;

  /** @example "notifyd test" */
  @IsOptional()
  @IsText({ max: 998 })
  subject?: string;

  /** @example "notifyd test message" */
  @IsOptional()
  @IsText({ max: 10_000 })
  body?: string;
}

export class SendTestResponseDto {
  /** @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /** @example "email" */
  channel: string;
  /** @example "pending" */
  status: string;
}

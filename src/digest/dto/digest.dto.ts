import { IsOptional } from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';
import { IsDigestFormat, IsDigestWindow } from '../../common/validation/digest-window.decorators.js';

export class DigestQueryDto {
  /**
   * Window the outcomes, failures, latency and deliverability cover: 1h, 6h, 24h (default; 1d is accepted), 7d or 30d.
   * @example "24h"
   */
  @IsDigestWindow()
  window?: string;

  /**
   * json (default) or markdown (text/markdown, for a person or a chat).
   * @example "json"
   */
  @IsDigestFormat()
  format?: string;
}

export class HarmDto {
  /** Messages late (their requested time has passed) and not sent because of it. @example 1200 */
  held: number;
  /** Messages given up on (failed) because of it, in the window. @example 0 */
  lost: number;
  /** Projects with held or lost messages. @example 4 */
  projects: number;
  /** @example ["email"] */
  channels: string[];
  /** How long the oldest held message has been late, in seconds; null when unknown. @example 960 */
  seconds: number | null;
}

export class FindingCallDto {
  /** An MCP tool name. @example "resume_lane" */
  tool: string;
  /** Its exact arguments. @example {"lane": "email:resend"} */
  arguments: Record<string, unknown>;
  /** True when the tool changes state and needs the admin key. @example true */
  admin: boolean;
  /** @example "lift the pause once the provider's window has reset" */
  purpose: string;
}

export class FindingDto {
  /** critical, warning or info. @example "warning" */
  severity: string;
  /** Stable code (docs/OPERATIONS.md lists every one). @example "bounce_rate_high" */
  code: string;
  /** @example "Email bounce rate is 3.1 % over the last 24h (31 bounced, 969 delivered)." */
  message: string;
  /** What fixes it: names the endpoint, MCP tool or variable. @example "Watch list quality: check the newest bounced addresses (GET /v1/admin/suppressions)." */
  action: string;
  /** The readings that made the rule fire. @example {"bounce_rate_percent": 3.1, "bounced": 31, "delivered": 969} */
  evidence: Record<string, unknown>;
  /** On findings about something failing now: what it costs; findings of one severity are ranked by it. */
  harm?: HarmDto;
  /** Who must act: operator (this instance's settings, providers, lanes) or caller (the application sending for a project). @example "operator" */
  owner?: 'operator' | 'caller';
  /** With owner caller: the projects whose callers must act. @example ["shop"] */
  project_ids?: string[];
  /** The exact MCP calls that check and fix it, in order. */
  calls?: FindingCallDto[];
}

export class BreakerDto {
  /** @example "email" */
  channel: string;
  /** @example "resend" */
  primary: string;
  /** @example "smtp" */
  fallback: string | null;
  /** closed, open or half_open. @example "closed" */
  state: string;
  /** @example null */
  resting_seconds: number | null;
}

export class DigestInstanceDto {
  /** @example "0.1.0" */
  version: string;
  /** @example "all" */
  role: string;
  /** @example 86400 */
  uptime_seconds: number;
  /** @example "https://notify.example.com" */
  public_url: string | null;
  /** Provider per channel, null when not configured. @example {"email": "resend", "sms": null, "in_app": "log"} */
  providers: Record<string, string | null>;
  /** EMAIL_FROM, or null when left at notifyd's placeholder. @example "notifications@acme.com" */
  email_from: string | null;
  /** @example "smtp" */
  email_fallback_provider: string | null;
  breakers: BreakerDto[];
  /** @example [] */
  paused_lanes: string[];
}

/** Per band, seconds since the requested time (scheduled_at) of the oldest late job; null when none is late. */
export class OldestWaitingDto {
  /** Seconds; priority below 50. @example 2 */
  urgent: number | null;
  /** Seconds; priority 50–79. @example 14 */
  normal: number | null;
  /** Seconds; priority 80 and above. @example null */
  bulk: number | null;
}

export class DigestQueueDto {
  /** @example 120 */
  pending: number;
  /** @example 8 */
  processing: number;
  /** @example 3 */
  retry: number;
  /** Jobs processing for longer than WORKER_LEASE_SECS. @example 0 */
  stuck_processing: number;
  /** Pending or retry jobs due now (run_at passed): a worker should be claiming them. @example 40 */
  due: number;
  /** Pending or retry jobs whose requested time (scheduled_at) has passed. @example 42 */
  late: number;
  /** How late the oldest late job of each band is, from the time its sender asked for (not the fair-share slot). */
  oldest_waiting_seconds: OldestWaitingDto;
}

export class WaitingProjectDto {
  /** @example "acme" */
  project_id: string;
  /** @example 30 */
  late: number;
  /** @example 28 */
  due: number;
  /** @example 14 */
  oldest_late_seconds: number | null;
}

export class WaitingDto {
  /** @example "email" */
  channel: string;
  /** @example 100 */
  pending: number;
  /** @example 3 */
  retry: number;
  /** @example 40 */
  due: number;
  /** @example 42 */
  late: number;
  /** Seconds since the requested time of the channel's oldest late job. @example 14 */
  oldest_late_seconds: number | null;
  /** Projects with late jobs on the channel. @example 2 */
  projects_late: number;
  /** Most late jobs first, at most 50. */
  by_project: WaitingProjectDto[];
}

export class RetryReasonDto {
  /** Normalised like failures. @example "Resend # internal_server_error: An unexpected error occurred." */
  reason: string;
  /** Among the sampled retries. @example 37 */
  count: number;
}

export class RetryingDto {
  /** @example "email" */
  channel: string;
  /** @example "resend" */
  provider: string;
  /** Jobs retrying after this provider failed them (exact). @example 37 */
  count: number;
  /** @example 4 */
  projects: number;
  /** At most 20. @example ["acme", "globex"] */
  project_ids: string[];
  /** Seconds since the requested time of the oldest of these jobs. @example 720 */
  oldest_late_seconds: number | null;
  /** @example "2026-11-30T06:02:00.000Z" */
  next_retry_at: string | null;
  /** The newest of these jobs. @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  sample_job_id: string;
  /** Their last errors, most common first, counted among the next 200 retries due. */
  causes: RetryReasonDto[];
}

export class WorkerProcessDto {
  /** worker or all. @example "worker" */
  role: string;
  /** @example "notifyd-worker-7d9f" */
  host: string;
  /** @example 1 */
  pid: number;
  /** @example "0.1.0" */
  version: string;
  /** @example "2026-11-30T05:00:00.000Z" */
  started_at: string;
  /** @example "2026-11-30T05:59:50.000Z" */
  last_beat_at: string;
  /** Set when the process stopped gracefully. @example null */
  stopped_at: string | null;
  /** @example true */
  alive: boolean;
}

export class DigestWorkersDto {
  /** Worker processes whose heartbeat is younger than alive_within_seconds. @example 1 */
  alive: number;
  /** @example "2026-11-30T05:59:50.000Z" */
  last_beat_at: string | null;
  /** @example 60 */
  alive_within_seconds: number;
  /** Newest beat first, at most 20. */
  processes: WorkerProcessDto[];
}

export class OutcomeDto {
  /** @example "email" */
  channel: string;
  /** @example "resend" */
  provider: string;
  /** @example 1520 */
  sent: number;
  /** @example 4 */
  failed: number;
  /** @example 0 */
  bounced: number;
  /** @example 1 */
  cancelled: number;
}

export class FailureCauseDto {
  /** @example "sms" */
  channel: string;
  /** Normalised: ids and numbers → # (a 3-digit HTTP status 100–599 is kept), addresses → <*@domain>; at most 160 characters. @example "Resend 422 validation_error: The <*@gmial.con> domain is invalid" */
  reason: string;
  /** @example 4 */
  count: number;
  /** Projects whose jobs failed with it (exact). @example 1 */
  projects: number;
  /** Their ids (at most 20). @example ["shop"] */
  project_ids: string[];
  /** The newest job with this cause. @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  sample_job_id: string;
  /** @example "2026-11-30T05:12:00.000Z" */
  last_seen: string;
}

export class RetriesWaitingDto {
  /** @example "email" */
  channel: string;
  /** @example 2 */
  attempts: number;
  /** @example 3 */
  count: number;
  /** @example "2026-11-30T06:02:00.000Z" */
  next_retry_at: string | null;
}

export class LatencyDto {
  /** @example "email" */
  channel: string;
  /** @example 0.42 */
  p50_seconds: number;
  /** @example 1.9 */
  p95_seconds: number;
  /** @example 1520 */
  samples: number;
}

export class DeliverabilityDto {
  /** @example 969 */
  delivered: number;
  /** @example 31 */
  bounced: number;
  /** null when this instance does not record complaints yet. @example 0 */
  complained: number | null;
  /** @example 3.1 */
  bounce_rate_percent: number | null;
  /** @example 0 */
  complaint_rate_percent: number | null;
}

export class DigestProjectDto {
  /** @example "acme" */
  id: string;
  /** @example "Acme" */
  name: string;
  /** @example ["email", "in_app"] */
  channels: string[];
  /** @example "billing@acme.com" */
  from_email: string | null;
  /** @example "Acme Billing" */
  from_name: string | null;
  /** @example 600 */
  rate_limit_per_min: number;
  /** @example 1520 */
  sent: number;
  /** @example 4 */
  failed: number;
}

export class DigestLaneDto {
  /** @example "email:resend" */
  lane: string;
  /** @example "email" */
  channel: string;
  /** @example "resend" */
  provider: string;
  /** @example null */
  project_id: string | null;
  /** Tokens per second in force now; 0 when the lane is unpaced (see paced). @example 8 */
  effective_rate: number;
  /** @example 8 */
  configured_rate: number;
  /** False when the lane is unpaced (rate 0: no rate limit of notifyd's own). @example true */
  paced: boolean;
  /** The rate in force in words: "8/s" or "unpaced" (never a bare 0). @example "8/s" */
  rate_text: string;
  /** @example null */
  paused_until: string | null;
  /** @example null */
  pause_kind: string | null;
  /** @example null */
  pause_reason: string | null;
}

export class DisabledWebhookDto {
  /** @example "0c9d8e7f-1a2b-4c3d-8e9f-001122334455" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /** Host only: a path may carry a token. @example "hooks.acme.com" */
  host: string;
  /** @example "2026-11-30T04:00:00.000Z" */
  disabled_at: string;
  /** @example "410 Gone" */
  reason: string;
}

export class PausedWebhookDto {
  /** @example "0c9d8e7f-1a2b-4c3d-8e9f-001122334455" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /** Host only: a path may carry a token. @example "hooks.acme.com" */
  host: string;
  /** The failed attempt that set the current pause (each failed probe sets a longer one). @example "2026-11-30T05:58:00.000Z" */
  last_failure_at: string | null;
  /** When the pause ends and one delivery goes as a probe. @example "2026-11-30T06:06:00.000Z" */
  paused_until: string;
  /** Failed attempts in a row; the pause starts at 5. @example 9 */
  consecutive_failures: number;
}

export class DatabaseHealthDto {
  /** @example 120000 */
  jobs_live_tuples: number;
  /** @example 800 */
  jobs_dead_tuples: number;
  /** @example 0.66 */
  jobs_dead_percent: number;
  /** @example "2026-11-30T05:58:00.000Z" */
  jobs_last_autovacuum: string | null;
  /**
   * What keeps autovacuum from visiting the jobs table: "server: autovacuum = off",
   * "notifyd sessions: track_counts = off", "table jobs: autovacuum_enabled = false". Empty when nothing does.
   * @example ["server: autovacuum = off"]
   */
  jobs_autovacuum_blocked_by: string[];
  /** Active sessions waiting on the NOTIFY commit lock. @example 0 */
  notify_lock_waiters: number;
}

export class SeveritySummaryDto {
  /** @example 0 */
  critical: number;
  /** @example 1 */
  warning: number;
  /** @example 1 */
  info: number;
}

export class DigestReportDto {
  /** @example "24h" */
  window: string;
  /** @example 86400 */
  window_seconds: number;
  /** @example "2026-11-29T06:00:00.000Z" */
  since: string;
  /** @example "2026-11-30T06:00:00.000Z" */
  generated_at: string;
  /** Ranked critical → warning → info; an all_quiet info finding when nothing needs attention. */
  findings: FindingDto[];
  summary: SeveritySummaryDto;
  instance: DigestInstanceDto;
  queue: DigestQueueDto;
  /** Live jobs per channel: what waits, how late, for which projects. */
  waiting: WaitingDto[];
  /** Jobs retrying now after a transient error, per channel × provider (most first). */
  retrying: RetryingDto[];
  /** Worker processes, from their heartbeats. */
  workers: DigestWorkersDto;
  outcomes: OutcomeDto[];
  /** Top ten causes of failed jobs in the window. */
  failures: FailureCauseDto[];
  retries_waiting: RetriesWaitingDto[];
  latency: LatencyDto[];
  deliverability: DeliverabilityDto;
  projects: DigestProjectDto[];
  lanes: DigestLaneDto[];
  webhooks_disabled: DisabledWebhookDto[];
  /**
   * Enabled outbound webhook endpoints paused by their circuit breaker now (after 5 failed attempts
   * in a row): their deliveries wait, attempts unspent, until a probe succeeds. Newest pause first, 100 at most.
   */
  webhooks_paused: PausedWebhookDto[];
  database: DatabaseHealthDto;
  /** @example "2026-11-30T05:59:58.000Z" */
  last_finished_at: string | null;
  /** WORKER_LEASE_SECS. @example 600 */
  lease_seconds: number;
}

export class DigestNotifyRequestDto {
  /**
   * Where to send: slack:<incoming webhook URL>, discord:<webhook URL>, telegram:<chat id or @channel> or email:<address>. Default: DIGEST_NOTIFY.
   * @example "slack:https://hooks.slack.com/services/T000/B000/XXXX"
   */
  @IsOptional()
  @IsText({ max: 2100 })
  to?: string;

  /**
   * Window to report on (1h, 6h, 24h, 7d, 30d); default: the one matching DIGEST_NOTIFY_EVERY.
   * @example "24h"
   */
  @IsDigestWindow()
  window?: string;
}

export class DigestNotifyResponseDto {
  /** @example true */
  success: boolean;
  /** slack, discord, telegram or the email provider. @example "slack" */
  provider: string;
  /** The message id where the target returns one (Discord, Telegram, email providers). @example null */
  provider_message_id: string | null;
  /** @example "24h" */
  window: string;
  summary: SeveritySummaryDto;
}

/**
 * The digest report: what an operator (or an agent) needs at 3 a.m., as one typed JSON
 * document. Field names are the API's (snake_case), so the REST response, the MCP tool's
 * structured content and the CLI's --json output are this object as is.
 */

import type { DigestWindow } from '../domain/digest-windows.js';

// The windows and formats live in the domain (template metrics reads them too).
export {
  DIGEST_FORMATS,
  DIGEST_WINDOW_ALIASES,
  DIGEST_WINDOWS,
  type DigestFormat,
  type DigestWindow,
} from '../domain/digest-windows.js';

export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * What a problem does to people now: messages held (late: their requested time has passed and
 * they are not out) or lost (failed), how many projects and which channels, for how long. The
 * ranking orders findings of one severity by it (findings/harm.ts), and the findings about
 * live trouble derive their severity from it.
 */
export interface Harm {
  /** Messages late and not sent because of this problem. */
  held: number;
  /** Messages given up on (failed) because of it, in the window. */
  lost: number;
  /** Projects with held or lost messages. */
  projects: number;
  channels: string[];
  /** How long the oldest held message has been late, or the problem has lasted; null when unknown. */
  seconds: number | null;
}

/** Who must act on a finding: the operator of this instance, or the caller (the application) of a project. */
export type FindingOwner = 'operator' | 'caller';

/** An exact MCP call that investigates or fixes a finding (REST routes are named in `action`). */
export interface FindingCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** True when the tool changes state: it needs the admin key (the read-only key is refused). */
  admin: boolean;
  /** What the call does here, in a few words. */
  purpose: string;
}

/** One thing to look at, with the action that fixes it and the numbers behind it. */
export interface Finding {
  severity: Severity;
  /** Stable machine code, e.g. `bounce_rate_high` (docs/OPERATIONS.md lists them all). */
  code: string;
  message: string;
  /** What to do: names the exact endpoint, MCP tool or environment variable. */
  action: string;
  /** The readings that made the rule fire. */
  evidence: Record<string, unknown>;
  /** For findings about something failing now: what it costs (ranks it among its severity). */
  harm?: Harm;
  /** Who must act (set where the finding's cause says so). */
  owner?: FindingOwner;
  /** With owner `caller`: the projects whose callers must act. */
  project_ids?: string[];
  /** The exact MCP calls that check and fix it, in order. */
  calls?: FindingCall[];
}

export type Band = 'urgent' | 'normal' | 'bulk';

export interface BreakerView {
  channel: string;
  primary: string;
  fallback: string | null;
  /** closed = primary in use; open = primary resting, fallback delivering; half_open = probing the primary. */
  state: 'closed' | 'open' | 'half_open';
  resting_seconds: number | null;
}

export interface DigestInstance {
  version: string;
  role: string;
  uptime_seconds: number;
  public_url: string | null;
  /** Provider per channel; null when the channel is not configured. */
  providers: Record<string, string | null>;
  /** The instance's default sender (EMAIL_FROM), null when left at notifyd's placeholder. */
  email_from: string | null;
  email_fallback_provider: string | null;
  breakers: BreakerView[];
  paused_lanes: string[];
}

export interface DigestQueue {
  pending: number;
  processing: number;
  retry: number;
  /** Jobs processing for longer than the lease (WORKER_LEASE_SECS): their worker is gone. */
  stuck_processing: number;
  /** Pending or retry jobs due now (run_at passed): a worker should be claiming them. */
  due: number;
  /** Pending or retry jobs whose requested time (scheduled_at) has passed: late, and not sent. */
  late: number;
  /**
   * Per priority band (urgent < 50, normal < 80, bulk), how late the oldest late job is: seconds
   * since the time its sender asked for (scheduled_at, or the enqueue time when it asked for
   * none). A fair-share slot, a lane pause or a retry back-off moves run_at, not this clock.
   */
  oldest_waiting_seconds: Record<Band, number | null>;
}

/** Live jobs of one channel: what waits, how late, for which projects. */
export interface WaitingRow {
  channel: string;
  pending: number;
  retry: number;
  due: number;
  late: number;
  /** Seconds since the requested time of the oldest late job; null when none is late. */
  oldest_late_seconds: number | null;
  /** Projects with late jobs on the channel. */
  projects_late: number;
  /** Per project (most late jobs first, at most 50): late and due jobs, the oldest one's lateness. */
  by_project: { project_id: string; late: number; due: number; oldest_late_seconds: number | null }[];
}

/**
 * Jobs waiting to retry after a transient failure (5xx, timeout, network), per channel ×
 * provider: what is failing now, before notifyd gives up on it.
 */
export interface RetryingRow {
  channel: string;
  provider: string;
  /** Jobs of the channel retrying after this provider failed them (exact). */
  count: number;
  /** Projects with such jobs (at most 20 listed). */
  projects: number;
  project_ids: string[];
  /** Seconds since the requested time of the oldest of these jobs: how long they have been held. */
  oldest_late_seconds: number | null;
  next_retry_at: string | null;
  /** The newest of these jobs. */
  sample_job_id: string;
  /**
   * Their last errors, normalised like `failures` (ids and numbers → #, HTTP status kept, addresses → <*@domain>),
   * most common first, counted among a sample: the next RETRY_REASON_SAMPLE retries due.
   */
  causes: { reason: string; count: number }[];
}

/** One worker process as its heartbeat says (worker_heartbeats). */
export interface WorkerProcessView {
  role: string;
  host: string;
  pid: number;
  version: string;
  started_at: string;
  last_beat_at: string;
  stopped_at: string | null;
  alive: boolean;
}

export interface DigestWorkers {
  /** Worker processes that beat within the last alive_within_seconds and did not stop. */
  alive: number;
  /** The newest beat of any worker process (kept a week); null when none ever beat. */
  last_beat_at: string | null;
  alive_within_seconds: number;
  /** The known worker processes, newest beat first (at most 20). */
  processes: WorkerProcessView[];
}

export interface OutcomeRow {
  channel: string;
  provider: string;
  sent: number;
  failed: number;
  bounced: number;
  cancelled: number;
}

export interface FailureCause {
  channel: string;
  /** The error with ids and numbers replaced by `#` (a 3-digit HTTP status 100–599 kept) and addresses by `<*@domain>`, at most 160 characters. */
  reason: string;
  count: number;
  /** Projects whose jobs failed with it (exact) … */
  projects: number;
  /** … and their ids (at most 20). */
  project_ids: string[];
  sample_job_id: string;
  last_seen: string;
}

export interface RetriesWaitingRow {
  channel: string;
  attempts: number;
  count: number;
  next_retry_at: string | null;
}

export interface LatencyRow {
  channel: string;
  /** Seconds from scheduled_at to the provider accepting the message. */
  p50_seconds: number;
  p95_seconds: number;
  samples: number;
}

export interface Deliverability {
  delivered: number;
  bounced: number;
  /** Complaints among the window's jobs (complained_at); a number since migration 48, typed nullable for reports of older versions. */
  complained: number | null;
  /** bounced / (delivered + bounced) × 100, 2 decimals; null without events. */
  bounce_rate_percent: number | null;
  /** complained / delivered × 100, 3 decimals; null without deliveries or complaint data. */
  complaint_rate_percent: number | null;
}

export interface ProjectRow {
  id: string;
  name: string;
  channels: string[];
  from_email: string | null;
  from_name: string | null;
  rate_limit_per_min: number;
  sent: number;
  failed: number;
}

export interface LaneRowView {
  lane: string;
  channel: string;
  provider: string;
  project_id: string | null;
  /** Tokens per second in force now; 0 when the lane is unpaced (see paced). */
  effective_rate: number;
  configured_rate: number;
  /** False when the lane is unpaced (rate 0: no rate limit of notifyd's own). */
  paced: boolean;
  /** The rate in force in words: "8/s" or "unpaced". */
  rate_text: string;
  paused_until: string | null;
  pause_kind: string | null;
  pause_reason: string | null;
}

export interface DisabledWebhook {
  id: string;
  project_id: string;
  host: string;
  disabled_at: string;
  reason: string;
}

export interface DatabaseHealth {
  jobs_live_tuples: number;
  jobs_dead_tuples: number;
  /** dead / (live + dead) × 100 on the jobs table, from pg_stat_user_tables. */
  jobs_dead_percent: number;
  jobs_last_autovacuum: string | null;
  /** What keeps autovacuum off the jobs table (server settings, the table's own option); empty when nothing does. */
  jobs_autovacuum_blocked_by: string[];
  /** Active sessions waiting on the NOTIFY commit lock (Lock:object on pg_database, object 0). */
  notify_lock_waiters: number;
}

export interface DigestFacts {
  window: DigestWindow;
  window_seconds: number;
  since: string;
  generated_at: string;
  instance: DigestInstance;
  queue: DigestQueue;
  /** Live jobs per channel: what waits, how late, for which projects. */
  waiting: WaitingRow[];
  /** Jobs retrying now after a transient error, per channel × provider (most jobs first). */
  retrying: RetryingRow[];
  workers: DigestWorkers;
  outcomes: OutcomeRow[];
  failures: FailureCause[];
  retries_waiting: RetriesWaitingRow[];
  latency: LatencyRow[];
  deliverability: Deliverability;
  projects: ProjectRow[];
  lanes: LaneRowView[];
  webhooks_disabled: DisabledWebhook[];
  database: DatabaseHealth;
  /** When a job last finished (sent, failed…) within the window; null if none did. */
  last_finished_at: string | null;
  /** Seconds a worker may hold a job before the reaper takes it back (WORKER_LEASE_SECS). */
  lease_seconds: number;
}

export interface DigestReport extends DigestFacts {
  /** Ranked critical → warning → info; never empty (an all-quiet info finding at least). */
  findings: Finding[];
  summary: Record<Severity, number>;
}

/** A finding rule: a pure function of the facts. One rule per file in findings/. */
export type FindingRule = (facts: DigestFacts) => Finding[];

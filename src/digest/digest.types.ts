/**
 * The digest report: what an operator (or an agent) needs at 3 a.m., as one typed JSON
 * document. Field names are the API's (snake_case), so the REST response, the MCP tool's
 * structured content and the CLI's --json output are this object as is.
 *
 * Its parts are declared once, as the response DTOs of dto/digest.dto.ts (with the API's
 * documentation and examples); this file gives them the names the digest code uses, narrowed
 * where the code knows more than the API says (severity, window, breaker state). The imports
 * are type-only: the worker, which builds digests, never loads the DTOs' validation libraries.
 */
import type {
  BreakerDto,
  DatabaseHealthDto,
  DeliverabilityDto,
  DigestInstanceDto,
  DigestLaneDto,
  DigestProjectDto,
  DigestQueueDto,
  DigestReportDto,
  DigestWorkersDto,
  DisabledWebhookDto,
  FailureCauseDto,
  FindingCallDto,
  FindingDto,
  HarmDto,
  LatencyDto,
  OutcomeDto,
  PausedWebhookDto,
  RetriesWaitingDto,
  RetryingDto,
  WaitingDto,
  WorkerProcessDto,
} from './dto/digest.dto.js';
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
export type Harm = HarmDto;

/** Who must act on a finding: the operator of this instance, or the caller (the application) of a project. */
export type FindingOwner = NonNullable<FindingDto['owner']>;

/** An exact MCP call that investigates or fixes a finding (REST routes are named in `action`). */
export type FindingCall = FindingCallDto;

/** One thing to look at, with the action that fixes it and the numbers behind it. */
export type Finding = Omit<FindingDto, 'severity'> & { severity: Severity };

export type Band = keyof DigestQueueDto['oldest_waiting_seconds'];

/** closed = primary in use; open = primary resting, fallback delivering; half_open = probing the primary. */
export type BreakerView = Omit<BreakerDto, 'state'> & { state: 'closed' | 'open' | 'half_open' };

export type DigestInstance = DigestInstanceDto;
export type DigestQueue = DigestQueueDto;
/** Live jobs of one channel: what waits, how late, for which projects. */
export type WaitingRow = WaitingDto;
/** Jobs waiting to retry after a transient failure (5xx, timeout, network), per channel × provider. */
export type RetryingRow = RetryingDto;
/** One worker process as its heartbeat says (worker_heartbeats). */
export type WorkerProcessView = WorkerProcessDto;
export type DigestWorkers = DigestWorkersDto;
export type OutcomeRow = OutcomeDto;
export type FailureCause = FailureCauseDto;
export type RetriesWaitingRow = RetriesWaitingDto;
export type LatencyRow = LatencyDto;
export type Deliverability = DeliverabilityDto;
export type ProjectRow = DigestProjectDto;
export type LaneRowView = DigestLaneDto;
export type DisabledWebhook = DisabledWebhookDto;
export type PausedWebhook = PausedWebhookDto;
export type DatabaseHealth = DatabaseHealthDto;

/** What the finding rules read: the report without its findings. */
export type DigestFacts = Omit<DigestReportDto, 'window' | 'findings' | 'summary'> & { window: DigestWindow };

export type DigestReport = DigestFacts & {
  /** Ranked critical → warning → info; never empty (an all-quiet info finding at least). */
  findings: Finding[];
  summary: Record<Severity, number>;
};

/** A finding rule: a pure function of the facts. One rule per file in findings/. */
export type FindingRule = (facts: DigestFacts) => Finding[];

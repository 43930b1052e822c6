import type { Channel } from '../../domain/channels.js';
import type { ProjectRef } from '../../projects/project.types.js';
import type { JobPayload } from '../../domain/job.types.js';

/**
 * Who a message is for. `one`: a send to an address (`to`) and/or a subscriber; `many`: a
 * fan-out to subscriber ids (a /v1/batch call, or one page of a segment).
 */
export type Audience =
  { kind: 'one'; to?: string; subscriberId?: string } | { kind: 'many'; subscriberIds: readonly string[] };

/**
 * What every way in hands to the admission pipeline once its own input is parsed: /v1/send,
 * /v1/schedule, /v1/batch (ids and segment pages), workflow send steps, MCP send tools and the
 * admin send-test all build one of these and call AdmissionService.admit().
 */
export interface AdmissionRequest {
  project: ProjectRef;
  channels: readonly Channel[];
  audience: Audience;
  payload: JobPayload;
  priority: number;
  /** Marketing: unsubscribe headers, marketing suppressions, preferences, send windows. */
  marketing: boolean;
  /** When the sender wants it sent: scheduled_at, or now. */
  requestedAt: Date;
  /** The request's key; each job's key adds its channel (and subscriber, for a fan-out). */
  idempotencyKey: string | null;
  templateId: string | null;
  topic: string | null;
  /**
   * A channel that cannot deliver (not configured): `skip` lists it in the answer (a single
   * send, which may still go out on its other channels); `refuse` refuses the whole request (a
   * fan-out must not half-happen).
   */
  unconfiguredChannels: 'skip' | 'refuse';
  /** The /v1/batch call's id, carried by every job it queues (GET /v1/batches/:id). */
  batchId?: string;
}

/** Why a target was not queued; `rule` is stable (counted and logged), `reason` is for people. */
export type SkipRule =
  'not_configured' | 'unknown_subscriber' | 'no_address' | 'invalid_address' | 'suppressed' | 'opted_out' | 'capped';

export interface Skip {
  rule: SkipRule;
  reason: string;
}

/** One recipient × channel on its way through the pipeline; each step fills in or skips. */
export interface Target {
  channel: Channel;
  subscriberId: string | null;
  /** The address on this channel; empty when there is none (then `skip` says why). */
  recipient: string;
  /** The subscriber's zone, for send windows. */
  timezone: string | null;
  /** When the job may first go: requestedAt moved into the recipient's send window. */
  scheduledAt: Date;
  /** Its fair-share slot, when it is due now on a paced lane. */
  runAt?: Date;
  idempotencyKey: string | null;
  skip?: Skip;
  /** Set by the insert: the job's id, and whether an earlier request already held its key. */
  jobId?: string;
  deduplicated?: boolean;
}

/** What the pipeline did with a request; each door shapes its own answer from it. */
export interface Admission {
  targets: Target[];
  /** The topic the jobs carry: the request's, else the template's. */
  topic: string | null;
  /** How many jobs this request created (not those an idempotency key deduplicated). */
  created: number;
  /** Their ids, when known: single sends, and fan-outs someone listens to (job.queued). */
  createdIds?: string[];
}

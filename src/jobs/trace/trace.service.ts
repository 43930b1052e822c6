import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error.js';
import { maskRecipient } from '../../common/pii/mask.js';
import { CHANNELS, type Channel } from '../../domain/channels.js';
import { Db } from '../../database/db.js';
import { SuppressionsService } from '../../governance/suppressions/suppressions.service.js';
import { lookupAddress, normaliseAddress } from '../../governance/suppressions/suppression-address.js';
import type { SuppressionRow } from '../../governance/suppressions/suppression.types.js';
import { LaneStateService, type LaneState } from '../../pacing/lane-state.service.js';
import { addressFor } from '../../subscribers/addresses.js';
import { SubscribersService } from '../../subscribers/subscribers.service.js';
import type { TraceDto, TraceMessageDto, TraceQueryDto, TraceSuppressionDto } from '../dto/trace.dto.js';
import {
  TRACE_ATTEMPTS_PER_JOB,
  TRACE_COUNT_CAP,
  TRACE_DEFAULT_RANGE_DAYS,
  TRACE_MAX_RANGE_DAYS,
  TRACE_PROVIDER_EVENTS_PER_JOB,
} from './trace-limits.js';
import type { JobAttempt, JobProviderEvent, JobRow } from '../../domain/job.types.js';
import { presentAttempt } from '../job.presenter.js';
import { RefusalsRepository, type SendRefusal } from '../refusals/refusals.repository.js';
import * as sql from '../sql/trace.sql.js';
import { rowEvents } from '../timeline/row-events.js';
import { waitingReason } from '../timeline/waiting.js';
import { judgeJob, judgeRefusal } from './verdict.js';

const DAY_MS = 86_400_000;

/** Who asks: a project key reads its own project unmasked; an operator any project (or one), recipients masked. */
export interface TraceCaller {
  projectId: string | null;
  masked: boolean;
}

/**
 * "Why didn't they get it?": for one recipient (an address or a subscriber id) and a time
 * range, every message notifyd was asked to send them, newest first, each with its verdict,
 * the reason in words and the evidence: the refusals admission recorded (send_refusals), the
 * jobs with their attempts (job_attempts), provider webhook evidence (provider_events), what
 * holds a waiting one (lane pauses, schedule, retry), and the active suppressions of the
 * recipient's addresses. One service behind GET /v1/admin/trace, the trace_recipient MCP tool
 * and the console's Trace page; a job's moments are told by jobs/timeline, as job_timeline does.
 */
@Injectable()
export class TraceService {
  constructor(
    private readonly db: Db,
    private readonly refusals: RefusalsRepository,
    private readonly subscribers: SubscribersService,
    private readonly suppressions: SuppressionsService,
    private readonly lanes: LaneStateService,
  ) {}

  async trace(query: TraceQueryDto, caller: TraceCaller, now = new Date()): Promise<TraceDto> {
    const { since, until, limit } = bounds(query, now);
    const projectId = scope(query, caller);
    const recipient = query.recipient?.trim() || null;
    const subscriberId = query.subscriber_id ?? null;

    // Resolve the recipient: the subscribers it names, and every address they are reached at.
    const email = recipient && recipient.includes('@') ? recipient : null;
    const phone = recipient ? phoneOf(recipient) : null;
    const subscribers = await this.subscribers.findForTrace(projectId, {
      id: subscriberId ?? (recipient && !email && !phone ? recipient : null),
      email,
      phone,
    });
    const addresses = new Set<string>();
    if (recipient) addresses.add(phone ?? recipient.toLowerCase());
    const keys: { channel: Channel; address: string }[] = [];
    const subscriberIds = new Set<string>(subscriberId ? [subscriberId] : []);
    for (const s of subscribers) {
      subscriberIds.add(s.id);
      for (const channel of CHANNELS) {
        const address = addressFor(channel, s);
        if (!address) continue;
        keys.push({ channel, address });
        if (channel !== 'in_app' && channel !== 'push') addresses.add(address.toLowerCase());
      }
    }
    if (recipient)
      for (const channel of CHANNELS)
        if (normaliseAddress(channel, recipient).ok && channelTakes(channel, recipient))
          keys.push({ channel, address: recipient });

    const [jobs, refused, suppressions] = await Promise.all([
      this.db.rows<JobRow>(sql.TRACE_JOBS, [projectId, [...addresses], [...subscriberIds], since, until, limit + 1]),
      this.refusals.search({
        projectId,
        addresses: [...addresses],
        subscriberIds: [...subscriberIds],
        since,
        until,
        limit: limit + 1,
      }),
      this.suppressions.activeOfAddresses(projectId, dedupeKeys(keys)),
    ]);
    // The newest `limit` of jobs and refusals together; only the jobs kept have their evidence read.
    const newest = [...jobs, ...refused].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, limit);
    const keptJobs = jobs.filter((j) => newest.includes(j));
    const keptRefusals = refused.filter((r) => newest.includes(r));
    const jobIds = keptJobs.map((j) => j.id);
    const [attempts, events, lanes] = await Promise.all([
      jobIds.length
        ? this.db.rows<PerJob<JobAttempt>>(sql.TRACE_ATTEMPTS, [jobIds, TRACE_ATTEMPTS_PER_JOB, TRACE_COUNT_CAP])
        : ([] as PerJob<JobAttempt>[]),
      jobIds.length
        ? this.db.rows<PerJob<JobProviderEvent>>(sql.TRACE_PROVIDER_EVENTS, [
            jobIds,
            TRACE_PROVIDER_EVENTS_PER_JOB,
            TRACE_COUNT_CAP,
          ])
        : ([] as PerJob<JobProviderEvent>[]),
      keptJobs.some((j) => j.status === 'pending' || j.status === 'retry') ? this.lanes.lanes() : ([] as LaneState[]),
    ]);

    const attemptsOf = groupByJob(attempts);
    const eventsOf = groupByJob(events);
    const mask = (address: string, channel?: string) =>
      caller.masked && address ? maskRecipient(address, channel) : address;
    const suppressionView = (s: SuppressionRow): TraceSuppressionDto => ({
      id: s.id,
      project_id: s.projectId,
      channel: s.channel,
      address: mask(s.address, s.channel),
      reason: s.reason,
      scope: s.scope,
      source: s.source,
      detail: s.detail,
      evidence: s.evidence,
      source_job_id: s.sourceJobId,
      created_at: s.createdAt.toISOString(),
    });
    const suppressionOf = (projectId: string, channel: string, address: string) => {
      const wanted = lookupAddress(channel as Channel, address);
      const found = suppressions.find(
        (s) => s.projectId === projectId && s.channel === channel && s.address === wanted,
      );
      return found ? suppressionView(found) : null;
    };

    const messages: TraceMessageDto[] = [
      ...keptJobs.map((job) =>
        this.jobMessage(
          job,
          attemptsOf.get(job.id) ?? NONE,
          eventsOf.get(job.id) ?? NONE,
          lanes,
          now,
          mask,
          suppressionOf,
        ),
      ),
      ...keptRefusals.map((r) => refusalMessage(r, mask, suppressionOf)),
    ].sort((a, b) => b.created_at.localeCompare(a.created_at));
    const verdicts: Record<string, number> = {};
    for (const m of messages) verdicts[m.verdict] = (verdicts[m.verdict] ?? 0) + 1;
    return {
      recipient: {
        addresses: [...addresses].map((a) => mask(a)),
        subscribers: subscribers.map((s) => ({
          project_id: s.projectId,
          id: s.id,
          email: s.email === null ? null : mask(s.email, 'email'),
          phone: s.phone === null ? null : mask(s.phone, 'sms'),
        })),
        suppressions: suppressions.map(suppressionView),
      },
      messages,
      count: messages.length,
      verdicts,
      truncated: jobs.length + refused.length > limit,
      since: since.toISOString(),
      until: until.toISOString(),
    };
  }

  private jobMessage(
    job: JobRow,
    attempts: Evidence<JobAttempt>,
    events: Evidence<JobProviderEvent>,
    lanes: LaneState[],
    now: Date,
    mask: (address: string, channel?: string) => string,
    suppressionOf: (projectId: string, channel: string, address: string) => TraceSuppressionDto | null,
  ): TraceMessageDto {
    const waiting = waitingReason(job, lanes, now);
    const judged = judgeJob(job, waiting);
    const timeline = [
      ...rowEvents(job, attempts.rows),
      ...events.rows.map((e) => ({
        at: e.occurredAt.toISOString(),
        event: `provider_${e.kind}`,
        detail: `${e.provider} ${e.providerType}${e.error ? `: ${e.error}` : ''}`,
        actor: `${e.provider}-webhook`,
      })),
    ].sort((a, b) => a.at.localeCompare(b.at));
    return {
      kind: 'job',
      job_id: job.id,
      project_id: job.projectId,
      channel: job.channel,
      recipient: mask(job.recipient, job.channel),
      subscriber_id: job.subscriberId,
      created_at: job.createdAt.toISOString(),
      status: job.status,
      ...judged,
      created_by: job.createdBy,
      provider: job.provider,
      provider_message_id: job.providerMessageId,
      attempts: job.attempts,
      waiting,
      attempt_log: attempts.rows.map(presentAttempt),
      ...(attempts.omitted ? { attempt_log_omitted: attempts.omitted } : {}),
      provider_events: events.rows.map((e) => ({
        provider: e.provider,
        type: e.providerType,
        kind: e.kind,
        occurred_at: e.occurredAt.toISOString(),
        error: e.error,
      })),
      ...(events.omitted ? { provider_events_omitted: events.omitted } : {}),
      suppression: judged.rule === 'suppressed' ? suppressionOf(job.projectId, job.channel, job.recipient) : null,
      events: timeline,
    };
  }
}

/** A row of a job's attempts or provider events, with how many that job has in all. */
type PerJob<T> = T & { jobId: string; total: number };

/** One job's evidence as the trace shows it: its newest rows, oldest first, and how many older ones were left out. */
interface Evidence<T> {
  rows: T[];
  omitted: number;
}

const NONE: Evidence<never> = { rows: [], omitted: 0 };

/** The rows (ordered by job, then oldest first) grouped per job, with the count each job's bound left out. */
function groupByJob<T>(rows: PerJob<T>[]): Map<string, Evidence<T>> {
  const out = new Map<string, Evidence<T> & { total: number }>();
  for (const row of rows) {
    const { jobId, total, ...rest } = row;
    let group = out.get(jobId);
    if (!group) out.set(jobId, (group = { rows: [], omitted: 0, total }));
    group.rows.push(rest as unknown as T);
  }
  for (const group of out.values()) group.omitted = Math.max(0, group.total - group.rows.length);
  return out;
}

function refusalMessage(
  r: SendRefusal,
  mask: (address: string, channel?: string) => string,
  suppressionOf: (projectId: string, channel: string, address: string) => TraceSuppressionDto | null,
): TraceMessageDto {
  const at = r.createdAt.toISOString();
  return {
    kind: 'refusal',
    job_id: null,
    project_id: r.projectId,
    channel: r.channel,
    recipient: mask(r.recipient, r.channel),
    subscriber_id: r.subscriberId,
    created_at: at,
    status: 'refused',
    ...judgeRefusal(r),
    created_by: r.createdBy,
    provider: null,
    provider_message_id: null,
    attempts: 0,
    waiting: null,
    attempt_log: [],
    provider_events: [],
    suppression: r.rule === 'suppressed' && r.recipient ? suppressionOf(r.projectId, r.channel, r.recipient) : null,
    events: [{ at, event: `refused_${r.rule}`, detail: r.detail, actor: r.createdBy }],
  };
}

/** The time range and limit, bounded; each mistake names its field. */
function bounds(query: TraceQueryDto, now: Date): { since: Date; until: Date; limit: number } {
  if (!query.recipient === !query.subscriber_id) {
    throw ApiError.unprocessable(
      'validation_failed',
      'recipient or subscriber_id: give exactly one of them (an email, phone or chat id in recipient, or a subscriber id).',
      {
        details: ['recipient or subscriber_id: give exactly one of them'],
      },
    );
  }
  const until = query.until ? new Date(query.until) : now;
  const since = query.since ? new Date(query.since) : new Date(until.getTime() - TRACE_DEFAULT_RANGE_DAYS * DAY_MS);
  if (since >= until)
    throw ApiError.unprocessable('validation_failed', 'since must be before until.', {
      details: ['since must be before until'],
    });
  if (until.getTime() - since.getTime() > TRACE_MAX_RANGE_DAYS * DAY_MS) {
    throw ApiError.unprocessable(
      'validation_failed',
      `since: the range may span at most ${TRACE_MAX_RANGE_DAYS} days; move since closer to until.`,
      {
        details: [`since: the range may span at most ${TRACE_MAX_RANGE_DAYS} days`],
      },
    );
  }
  return { since, until, limit: query.limit ?? 50 };
}

/** A project key reads its own project whatever it asks; an operator may name one. */
function scope(query: TraceQueryDto, caller: TraceCaller): string | null {
  if (caller.projectId === null) return query.project_id ?? null;
  if (query.project_id !== undefined && query.project_id !== caller.projectId) {
    throw ApiError.forbidden(
      `project_id: a project key reads its own project ('${caller.projectId}') only; leave project_id out or use an operator key.`,
    );
  }
  return caller.projectId;
}

/** The E.164 form of a phone number given with spaces or dashes, or null when it is not one. */
function phoneOf(recipient: string): string | null {
  const check = normaliseAddress('sms', recipient);
  return check.ok ? check.address : null;
}

/** Which channels an address given as `recipient` may be on, by its shape. */
function channelTakes(channel: Channel, recipient: string): boolean {
  if (channel === 'email') return recipient.includes('@');
  if (channel === 'sms' || channel === 'whatsapp') return phoneOf(recipient) !== null;
  return channel !== 'in_app' && channel !== 'push' && !recipient.includes('@');
}

function dedupeKeys(keys: { channel: Channel; address: string }[]): { channel: Channel; address: string }[] {
  const seen = new Set<string>();
  return keys.filter((k) => {
    const id = `${k.channel}\n${k.address}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

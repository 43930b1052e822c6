import { Injectable, Logger } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { ApiError } from '../../common/errors/api-error.js';
import { allot, capMatches, type CappedJob, type RecipientCap } from './cap-rules.js';
import { type CapRow, CapsRepository } from './caps.repository.js';
import type { SetCapDto } from './dto/cap.dto.js';
import { isUuid } from '../../domain/ids.js';

/** Ledger rows older than the longest window are purged at most this often per process. */
const PURGE_EVERY_MS = 10 * 60_000;
const PURGE_SLICE = 5_000;

/**
 * Per-recipient caps (Courier's send limits, Knock's throttle): at most N messages per
 * subscriber per window, per channel or topic, so that a bug in a caller cannot flood a person.
 * A message over a cap is skipped (not sent, with the reason), not deferred: deferring a flood
 * would still deliver it, later.
 */
@Injectable()
export class CapsService {
  private readonly logger = new Logger(CapsService.name);
  private lastPurge = 0;

  constructor(private readonly repository: CapsRepository) {}

  list(projectId: string): Promise<CapRow[]> {
    return this.repository.list(projectId);
  }

  set(
    projectId: string,
    cap: { channel: string; topic: string; maxMessages: number; windowSeconds: number },
  ): Promise<CapRow & { created: boolean }> {
    return this.repository.upsert(projectId, cap.channel, cap.topic, cap.maxMessages, cap.windowSeconds);
  }

  /** PUT /v1/caps and set_cap: a validated request, "*" when channel or topic is left out. */
  put(projectId: string, dto: SetCapDto): Promise<CapRow & { created: boolean }> {
    return this.set(projectId, {
      channel: dto.channel ?? '*',
      topic: dto.topic ?? '*',
      maxMessages: dto.max_messages,
      windowSeconds: dto.window_seconds,
    });
  }

  async delete(projectId: string, id: string): Promise<void> {
    if (!isUuid(id))
      throw ApiError.badRequest(
        'invalid_id',
        `'${id.slice(0, 60)}' is not a cap id: cap ids are UUIDs (list them with GET /v1/caps or list_caps).`,
      );
    if (!(await this.repository.delete(projectId, id))) throw ApiError.notFound('Cap', id);
  }

  /**
   * /v1/batch's check, for jobs about to be queued (ids may be placeholders): the reason for
   * each one over a cap given the subscriber's recent sends and the jobs /v1/send accepted and
   * has not sent yet (holds). Unlocked and nothing recorded: the worker's check is the one that
   * counts. `known`: the project's caps if the caller already read them (list()).
   */
  async overCap(
    projectId: string,
    jobs: readonly CappedJob[],
    known?: readonly RecipientCap[],
  ): Promise<Map<string, string>> {
    if (!jobs.some((j) => j.subscriberId !== null)) return new Map();
    const caps = known ?? (await this.repository.list(projectId));
    const capped = jobs.filter((j) => caps.some((c) => capMatches(c, j)));
    if (capped.length === 0) return new Map();
    const used = await this.repository.usageAtEnqueue(
      pairsOf(capped).map((p) => ({ ...p, dueAt: null })),
      [],
    );
    return allot(capped, caps, used).over;
  }

  /**
   * /v1/send's check and insert, serialised per subscriber. Under the advisory lock the worker
   * takes for the subscriber, it counts the ledger and the holds of jobs accepted but not yet
   * sent, leaves out the jobs over a cap (reasons in `over`), lets `insert` queue the rest in
   * the same transaction and holds a slot for each job `insert` created (placeholder id → job
   * id). Two concurrent sends to one subscriber thus see each other's jobs, and the answer
   * already says which were refused; the worker's check stays the final word. With no cap
   * matching, `insert` runs on its own, outside any transaction.
   * `jobs` share one subscriber (or none) and one due time; their ids are placeholders.
   * `knownCaps`: the project's caps when the caller read them already (GovernanceService.sendChecks).
   */
  async enqueueUnderCaps<T>(
    projectId: string,
    jobs: readonly CappedJob[],
    dueAt: Date,
    idempotencyKeys: string[],
    insert: (
      admitted: ReadonlySet<string>,
      runner?: QueryRunner,
    ) => Promise<{ value: T; created: ReadonlyMap<string, string> }>,
    knownCaps?: readonly RecipientCap[],
  ): Promise<{ over: Map<string, string>; value: T }> {
    const subscribed = jobs.filter((j) => j.subscriberId !== null);
    const caps = subscribed.length ? (knownCaps ?? (await this.repository.list(projectId))) : [];
    const capped = subscribed.filter((j) => caps.some((c) => capMatches(c, j)));
    const all = new Set(jobs.map((j) => j.id));
    if (capped.length === 0) return { over: new Map(), value: (await insert(all)).value };
    return this.repository.db.transaction(async (runner) => {
      await this.repository.lockSubscribers([...new Set(capped.map(subscriberKey))].sort(), runner);
      const used = await this.repository.usageAtEnqueue(
        pairsOf(capped).map((p) => ({ ...p, dueAt })),
        idempotencyKeys,
        runner,
      );
      const { over, counted } = allot(capped, caps, used);
      const { value, created } = await insert(new Set([...all].filter((id) => !over.has(id))), runner);
      const holds = counted.filter((j) => created.has(j.id)).map((j) => ({ ...j, id: created.get(j.id)!, dueAt }));
      await this.repository.recordHolds(holds, runner);
      return { over, value };
    });
  }

  /**
   * The worker's check for a claimed batch, in one transaction: lock the batch's capped
   * subscribers, count their sends, let jobs through in order and record them. If the batch
   * transaction fails, each subscriber is tried on its own; jobs whose check still fails are
   * returned as `unchecked` (the caller defers them: never sent unchecked).
   */
  async admit(
    jobs: readonly CappedJob[],
    rules?: Promise<RecipientCap[] | Error>,
  ): Promise<{ over: Map<string, string>; unchecked: Set<string> }> {
    const over = new Map<string, string>();
    const unchecked = new Set<string>();
    const withSubscriber = jobs.filter((j) => j.subscriberId !== null);
    if (withSubscriber.length === 0) return { over, unchecked };
    let caps: RecipientCap[];
    try {
      const read = await (rules ?? this.rulesFor(withSubscriber));
      if (read instanceof Error) throw read;
      caps = read;
    } catch (err) {
      this.logger.warn(
        `recipient caps unreadable for ${withSubscriber.length} job(s), deferring them: ${(err as Error).message}`,
      );
      for (const j of withSubscriber) unchecked.add(j.id);
      return { over, unchecked };
    }
    const capped = withSubscriber.filter((j) => caps.some((c) => capMatches(c, j)));
    if (capped.length === 0) return { over, unchecked };
    try {
      for (const [id, reason] of await this.admitTogether(capped, caps)) over.set(id, reason);
    } catch (err) {
      this.logger.warn(
        `recipient cap check failed for ${capped.length} job(s), checking subscriber by subscriber: ${(err as Error).message}`,
      );
      const groups = new Map<string, CappedJob[]>();
      for (const j of capped) groups.set(subscriberKey(j), [...(groups.get(subscriberKey(j)) ?? []), j]);
      for (const group of groups.values()) {
        try {
          for (const [id, reason] of await this.admitTogether(group, caps)) over.set(id, reason);
        } catch {
          for (const j of group) unchecked.add(j.id);
        }
      }
    }
    this.purgeNowAndThen();
    return { over, unchecked };
  }

  /**
   * The caps of the projects of these jobs (of those with a subscriber: caps are per person),
   * read before admit() needs them so that the worker reads them alongside its other per-batch
   * rules instead of one round trip later. Never rejects: a failed read is returned, and
   * admit() defers the jobs it concerns.
   */
  rulesFor(jobs: readonly CappedJob[]): Promise<RecipientCap[] | Error> {
    const projectIds = [...new Set(jobs.flatMap((j) => (j.subscriberId !== null ? [j.projectId] : [])))];
    if (projectIds.length === 0) return Promise.resolve([]);
    return this.repository
      .ofProjects(projectIds)
      .catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  }

  private admitTogether(jobs: CappedJob[], caps: RecipientCap[]): Promise<Map<string, string>> {
    const db = this.repository.db;
    return db.transaction(async (runner) => {
      await this.repository.lockSubscribers([...new Set(jobs.map(subscriberKey))].sort(), runner);
      const used = await this.repository.usage(
        pairsOf(jobs),
        jobs.map((j) => j.id),
        runner,
      );
      const { over, counted } = allot(jobs, caps, used);
      await this.repository.recordSends(counted, runner);
      return over;
    });
  }

  private purgeNowAndThen(): void {
    if (Date.now() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = Date.now();
    this.repository
      .purgeOld(PURGE_SLICE)
      .catch((err) => this.logger.warn(`recipient cap ledger purge failed: ${(err as Error).message}`));
    this.repository
      .purgeOldHolds(PURGE_SLICE)
      .catch((err) => this.logger.warn(`recipient cap holds purge failed: ${(err as Error).message}`));
  }
}

const subscriberKey = (j: CappedJob) => `${j.projectId}/${j.subscriberId}`;
const pairsOf = (jobs: readonly CappedJob[]) =>
  jobs.map((j) => ({ projectId: j.projectId, subscriberId: j.subscriberId! }));

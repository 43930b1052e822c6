import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { Connector, DeliveryResult, OutboundMessage } from '../../connectors/connector.js';
import { ConnectorRegistry } from '../../connectors/connector-registry.js';
import { FailoverBreaker } from '../../connectors/failover/failover-breaker.js';
import { ProviderError } from '../../connectors/provider-error.js';
import { GovernanceService, type Refusal } from '../../governance/governance.service.js';
import { isHardBounce } from '../../governance/suppressions/provider-evidence.js';
import { TrackingService } from '../../governance/tracking/tracking.service.js';
import { type Lane, laneKey } from '../../domain/lane.js';
import { preferencesUrl } from '../../governance/preference-center/preferences-url.js';
import { type LanePause, PacingService } from '../../pacing/pacing.service.js';
import { ProjectProvidersService } from '../../project-providers/project-providers.service.js';
import { ChatAccessService } from '../../chat-bindings/chat-access.service.js';
import { routeIdOf, TelegramRouteConnectors } from '../../telegram-routes/route-connectors.js';
import { ProjectsService } from '../../projects/projects.service.js';
import type { ClaimedJob } from './claimed-job.js';
import { DeliveryEvents } from './delivery-events.js';
import { buildMessage, type Sender } from './message-builder.js';
import { Outcomes } from './outcomes.js';
import { type RenderOutcome, TemplateRenderer } from '../../templates/template-renderer.js';
import { runPool, withTimeout } from './pool.js';
import { boundContent, type KeptContent } from '../content/content-bounds.js';
import { JobContentsRepository } from '../content/job-contents.repository.js';
import { WorkerRepository } from './worker.repository.js';

/** One provider call's worth of jobs on one lane. */
interface Chunk {
  lane: Lane;
  connector: Connector;
  jobs: ClaimedJob[];
  messages: OutboundMessage[];
  /** Set on a primary's chunk when the channel has a fallback: refusals that may fail over go there. */
  fallback?: Connector;
}

/** Lets the worker stop a dispatch from starting new provider calls during shutdown. */
export interface DispatchControl {
  readonly stopping: boolean;
}

/** Outcomes are written at least this often while a long (paced) batch is still sending. */
const FLUSH_EVERY_MS = 1_000;

/** Shortest lane pause after a rate-limited answer. */
const MIN_PAUSE_MS = 500;
/** A job whose rules could not be read goes back to the queue for this long. */
const DEFER_MS = 15_000;
const deferredUntil = () => new Date(Date.now() + DEFER_MS);

/**
 * Sends one claimed batch: screens it (one prefetch per batch), groups it by lane, chunks it
 * by the connector's batchMax, paces each call, classifies every answer, and writes the
 * outcomes with one statement per kind. No transaction is open during a provider call.
 */
@Injectable()
export class Dispatcher {
  private readonly logger = new Logger(Dispatcher.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: ConnectorRegistry,
    private readonly pacing: PacingService,
    private readonly governance: GovernanceService,
    private readonly tracking: TrackingService,
    private readonly projects: ProjectsService,
    private readonly repository: WorkerRepository,
    private readonly events: DeliveryEvents,
    private readonly breaker: FailoverBreaker,
    private readonly templates: TemplateRenderer,
    private readonly projectProviders: ProjectProvidersService,
    private readonly chatAccess: ChatAccessService,
    private readonly contents: JobContentsRepository,
    private readonly telegramRoutes: TelegramRouteConnectors,
  ) {}

  async dispatch(jobs: ClaimedJob[], control: DispatchControl): Promise<void> {
    const outcomes = new Outcomes(new Set(jobs.map((j) => j.projectId)));
    const flusher = new Flusher(this.repository, this.events, this.logger);
    const refusals: Refusal[] = [];
    try {
      const chunks = await this.plan(jobs, outcomes);
      await runPool(chunks, this.config.worker.concurrency, async (chunk) => {
        if (control.stopping) {
          // Shutdown: never started, so released with the attempt given back.
          for (const job of chunk.jobs)
            outcomes.requeue.push({ id: job.id, attempts: job.attempts, error: null, runAt: new Date() });
        } else {
          await this.sendChunk(chunk, outcomes, control, refusals);
        }
        if (flusher.due(outcomes)) await flusher.flush(outcomes);
      });
    } finally {
      await flusher.flush(outcomes);
      // Hard bounces, STOP and the like become suppressions (governance logs its own failures).
      if (refusals.length) await this.governance.recordRefusals(refusals);
    }
  }

  /** Screens the batch and cuts it into provider calls; jobs settled without a call go straight to outcomes. */
  private async plan(jobs: ClaimedJob[], outcomes: Outcomes): Promise<Chunk[]> {
    const projectIds = [...outcomes.projectIds];
    // Built once: screened here and asked for each job's verdict below (index i is jobs[i]).
    const screened = jobs.map((j) => ({
      id: j.id,
      projectId: j.projectId,
      channel: j.channel,
      recipient: j.recipient,
      subscriberId: j.subscriberId,
      topic: j.topic,
      payload: j.payload,
      marketing: j.payload.marketing === true,
      templateId: j.templateId,
    }));
    const [screening, senders, rendered, own, chatRefusals, routes] = await Promise.all([
      this.governance.screen(screened),
      this.projects.senders(projectIds),
      // Templates and recipients' locales: one read each per batch, alongside the screening.
      // `{{ preferences_url }}`: signed by governance for the job's subscriber (none without PUBLIC_URL).
      this.templates.renderBatch(jobs, (job) => ({ preferences_url: preferencesUrl(job) })),
      // Projects with their own provider account: one read per batch (built connectors are cached).
      this.projectProviders.connectorsFor(projectIds).catch((err: Error) => err),
      // Chats the instance's bots may reach for each project (issue 18): one read per batch, if any.
      // (Jobs routed through an owner's own bot need no binding: it is not the instance's bot.)
      this.chatAccess.refusals(jobs.filter((j) => routeIdOf(j) === undefined)),
      // Per-user Telegram bots (chat.telegram_route_id): one read per batch, if any job names one.
      this.telegramRoutes.forJobs(jobs),
    ]);
    if (own instanceof Error) {
      // Without knowing which projects send through their own account, send nothing: back to the queue.
      for (const job of jobs) outcomes.defer(job, `project providers unreadable: ${own.message}`, deferredUntil());
      return [];
    }
    await this.breaker
      .refresh()
      .catch((err) => this.logger.warn(`failover breakers not read: ${(err as Error).message}`));
    const byLane = new Map<string, { lane: Lane; connector: Connector; fallback?: Connector; jobs: ClaimedJob[] }>();
    const restingMoved = new Map<string, { lane: Lane; count: number }>();
    for (const [i, job] of jobs.entries()) {
      const routed = routes.get(job.id);
      if (routed && 'fail' in routed) {
        // Never through another bot than the route's: the message would come from someone else.
        outcomes.failed.push({ id: job.id, attempts: job.attempts, provider: 'telegram', error: routed.fail });
        continue;
      }
      if (routed && 'defer' in routed) {
        outcomes.defer(job, routed.defer, deferredUntil());
        continue;
      }
      const projectConnector = !routed && own.size ? own.get(`${job.projectId}/${job.channel}`) : undefined;
      if (projectConnector instanceof Error) {
        // Its credentials cannot be opened (key removed before a reseal): never sent through the instance's account.
        outcomes.retryOrFail(job, null, projectConnector.message);
        continue;
      }
      const connector = routed?.connector ?? projectConnector ?? this.registry.forChannel(job.channel);
      if (!connector) {
        outcomes.failed.push({
          id: job.id,
          attempts: job.attempts,
          provider: null,
          error: this.registry.refusal(job.channel)!,
        });
        continue;
      }
      // Through the instance's bot to a chat not bound to the project: never sent (its own bot may).
      const chat = projectConnector || routed ? undefined : chatRefusals.get(job.id);
      if (chat && 'fail' in chat) {
        outcomes.failed.push({ id: job.id, attempts: job.attempts, provider: connector.provider, error: chat.fail });
        continue;
      }
      if (chat) {
        outcomes.defer(job, chat.defer, deferredUntil());
        continue;
      }
      const verdict = screening.verdict(screened[i]);
      if (verdict.action === 'skip') {
        outcomes.skipped.push({ id: job.id, attempts: job.attempts, reason: verdict.reason });
        continue;
      }
      if (verdict.action === 'suppress') {
        outcomes.failed.push({
          id: job.id,
          attempts: job.attempts,
          provider: connector.provider,
          error: `suppressed: ${verdict.reason}`,
        });
        continue;
      }
      if (verdict.action === 'defer') {
        // Never sent unchecked (rules unreadable), or outside its send window: back to the queue, attempt given back.
        outcomes.defer(job, verdict.reason, verdict.until ?? deferredUntil());
        continue;
      }
      const render = rendered.get(job.id);
      if (render && 'error' in render) {
        // A template that cannot render never will: fail this job only, with the reason.
        outcomes.failed.push({ id: job.id, attempts: job.attempts, provider: null, error: render.error });
        continue;
      }
      if (render && 'unavailable' in render) {
        outcomes.defer(job, render.unavailable, deferredUntil());
        continue;
      }
      if (routed) {
        // The owner's bot: its own connector (token), on the project's lane for routed sends.
        const key = `${laneKey(routed.lane)}#route/${routeIdOf(job)!.toLowerCase()}`;
        if (!byLane.has(key)) byLane.set(key, { lane: routed.lane, connector: routed.connector, jobs: [] });
        byLane.get(key)!.jobs.push(job);
        continue;
      }
      if (projectConnector) {
        // The project's own account: a lane of its own (paced and paused apart), no instance fallback.
        const lane: Lane = { channel: job.channel, provider: projectConnector.provider, projectId: job.projectId };
        const key = `${laneKey(lane)}#own`;
        if (!byLane.has(key)) byLane.set(key, { lane, connector: projectConnector, jobs: [] });
        byLane.get(key)!.jobs.push(job);
        continue;
      }
      const primaryLane: Lane = { channel: job.channel, provider: connector.provider };
      const fallback = this.registry.fallbackFor(job.channel);
      // While the primary's breaker rests it, its traffic goes straight to the fallback.
      const resting = fallback !== undefined && this.breaker.isResting(primaryLane);
      const route = resting ? fallback : connector;
      const lane: Lane = { channel: job.channel, provider: route.provider };
      if (resting) {
        const moved = restingMoved.get(laneKey(primaryLane)) ?? { lane: primaryLane, count: 0 };
        restingMoved.set(laneKey(primaryLane), { lane: primaryLane, count: moved.count + 1 });
      }
      const key = laneKey(lane);
      if (!byLane.has(key))
        byLane.set(key, { lane, connector: route, fallback: resting ? undefined : fallback, jobs: [] });
      byLane.get(key)!.jobs.push(job);
    }
    for (const { lane, count } of restingMoved.values()) {
      await this.breaker
        .countFailovers(lane, count)
        .catch((err) => this.logger.warn(`failovers not counted: ${(err as Error).message}`));
    }
    const chunks: Chunk[] = [];
    for (const { lane, connector, fallback, jobs: laneJobs } of byLane.values()) {
      const cut = this.cut(
        lane,
        connector,
        laneJobs,
        (j) =>
          buildMessage(
            j,
            this.sender(j.projectId, senders),
            contentOf(rendered.get(j.id)),
            senders.get(j.projectId)?.renderedContent === 'redact',
          ),
        fallback,
      );
      for (const chunk of cut) chunks.push(...(await this.fitBucket(chunk)));
    }
    // What was rendered, kept for the job view (before tracking rewrites the HTML's links).
    const kept = this.renderedToKeep(chunks, rendered, senders);
    await Promise.all([
      // Own open/click tracking on the email HTML (PUBLIC_URL and the project's rules allowing).
      this.tracking.instrument(chunks.flatMap((c) => c.messages)),
      // Never holds a send back: a content not kept costs the job view, not the message.
      this.contents
        .save(kept)
        .catch((err) =>
          this.logger.warn(`rendered content of ${kept.length} job(s) not kept: ${(err as Error).message}`),
        ),
    ]);
    return chunks;
  }

  /**
   * The rendered parts of the batch's rendered jobs, bounded (64 KiB a job), except for projects
   * whose `settings.rendered_content` is "redact". Jobs sent as their payload say have none.
   */
  private renderedToKeep(
    chunks: Chunk[],
    rendered: Map<string, RenderOutcome>,
    senders: Map<string, { renderedContent: string | null }>,
  ): { jobId: string; content: KeptContent }[] {
    const kept: { jobId: string; content: KeptContent }[] = [];
    for (const chunk of chunks) {
      for (const m of chunk.messages) {
        if (!contentOf(rendered.get(m.jobId)) || senders.get(m.projectId)?.renderedContent === 'redact') continue;
        kept.push({
          jobId: m.jobId,
          content: boundContent({ subject: m.subject, body: m.body, bodyHtml: m.bodyHtml }),
        });
      }
    }
    return kept;
  }

  /** Cuts a lane's jobs into calls of at most the connector's batchMax. */
  private cut(
    lane: Lane,
    connector: Connector,
    jobs: ClaimedJob[],
    message: (job: ClaimedJob, index: number) => OutboundMessage,
    fallback?: Connector,
  ): Chunk[] {
    const chunks: Chunk[] = [];
    for (let i = 0; i < jobs.length; i += connector.batchMax) {
      const slice = jobs.slice(i, i + connector.batchMax);
      chunks.push({ lane, connector, fallback, jobs: slice, messages: slice.map((j, k) => message(j, i + k)) });
    }
    return chunks;
  }

  /**
   * A call whose requests would overflow the lane's bucket (a Resend batch of emails with
   * attachments, a push call to many devices) is halved until each part fits, or is one message:
   * its requests then reach the provider at the lane's rate, not as one burst.
   */
  private async fitBucket(chunk: Chunk): Promise<Chunk[]> {
    if (!chunk.connector.requestsFor || chunk.jobs.length < 2) return [chunk];
    const capacity = this.pacing.capacityOf(chunk.lane);
    if (!Number.isFinite(capacity) || (await this.costOf(chunk.connector, chunk.messages)) <= capacity) return [chunk];
    const half = Math.ceil(chunk.jobs.length / 2);
    const [first, second] = [0, half].map((from) => ({
      ...chunk,
      jobs: chunk.jobs.slice(from, from + half),
      messages: chunk.messages.slice(from, from + half),
    }));
    return [...(await this.fitBucket(first)), ...(await this.fitBucket(second))];
  }

  /** The pacing tokens one call takes: what the connector says it will make, else 1 per call or per message. */
  private async costOf(connector: Connector, messages: readonly OutboundMessage[]): Promise<number> {
    if (connector.requestsFor) {
      // A connector that cannot tell is charged one token per message: never less than it may make.
      const cost = await Promise.resolve()
        .then(() => connector.requestsFor!(messages))
        .catch(
          (err: Error) => (
            this.logger.warn(
              `${connector.provider} could not count its requests (${err?.message}): charged one per message`,
            ),
            NaN
          ),
        );
      return Number.isFinite(cost) && cost >= 0 ? cost : messages.length;
    }
    return connector.meters === 'messages' ? messages.length : 1;
  }

  private sender(
    projectId: string,
    senders: Map<string, { fromEmail: string | null; fromName: string | null }>,
  ): Sender {
    const own = senders.get(projectId);
    // A project's own address is never mixed with the instance's display name.
    if (own?.fromEmail) return { email: own.fromEmail, name: own.fromName ?? undefined };
    return { email: this.config.connectors.emailFrom, name: this.config.connectors.emailFromName };
  }

  private async sendChunk(
    chunk: Chunk,
    outcomes: Outcomes,
    control: DispatchControl,
    refusals: Refusal[],
  ): Promise<void> {
    const timing = { ms: 0 };
    let results = await this.call(chunk.connector, chunk.lane, chunk.messages, control, timing);
    if (results === 'paused' && chunk.fallback)
      return this.failOverChunk(chunk, chunk.fallback, outcomes, control, refusals);
    if (results === 'paused') return this.holdBack(chunk.jobs, chunk.lane, outcomes);
    if (
      chunk.jobs.length > 1 &&
      !chunk.connector.perMessageResults &&
      results.every((r) => !r.ok && r.error.kind === 'permanent')
    ) {
      // A whole batch refused (e.g. one bad address in a Resend batch): retry item by item so
      // that one bad message does not fail the good ones.
      const single: DeliveryResult[] = [];
      for (const [i, message] of chunk.messages.entries()) {
        const one = await this.call(chunk.connector, chunk.lane, [message], control);
        if (one === 'paused') {
          await this.holdBack(chunk.jobs.slice(i), chunk.lane, outcomes);
          break;
        }
        single.push(...one);
      }
      results = single;
    }
    const pause = await this.pauseForRefusals(chunk, results);
    // The primary's answers as they came (the failover below may replace some with the fallback's).
    this.events.emitProviderCall({
      channel: chunk.lane.channel,
      provider: chunk.connector.provider,
      durationMs: timing.ms,
      attempts: chunk.jobs.map((j) => ({ attempt: j.attempts, maxAttempts: j.maxAttempts })),
      results: [...results],
    });
    const providers = results.map(() => chunk.connector.provider);
    const pauses = results.map(() => pause);
    if (chunk.fallback) await this.failOver(chunk, chunk.fallback, results, providers, pauses, control);
    for (let i = 0; i < results.length; i++) {
      this.settle(providers[i], chunk.jobs[i], results[i], outcomes, pauses[i]);
      const r = results[i];
      if (!r.ok && (r.error.deadRecipient || r.error.providerCode)) {
        const job = chunk.jobs[i];
        refusals.push({
          jobId: job.id,
          projectId: job.projectId,
          channel: job.channel,
          recipient: job.recipient,
          provider: providers[i],
          error: r.error,
        });
      }
    }
  }

  /**
   * Failover: every message the primary refused as transient or rate-limited goes through the
   * fallback at once, and the primary's breaker trips (it rests for the cooldown). Permanent
   * refusals never fail over: the message itself is at fault. If the fallback's lane is paused,
   * the primary's answers stand (the jobs retry or wait as the primary said).
   */
  private async failOver(
    chunk: Chunk,
    fallback: Connector,
    results: DeliveryResult[],
    providers: string[],
    pauses: (LanePause | undefined)[],
    control: DispatchControl,
  ): Promise<void> {
    const moved = results.flatMap((r, i) =>
      !r.ok && (r.error.kind === 'transient' || r.error.kind === 'rate_limited') ? [i] : [],
    );
    if (moved.length === 0) return;
    const first = results[moved[0]] as { ok: false; error: ProviderError };
    await this.breaker
      .trip(chunk.lane, fallback.provider, moved.length, `${chunk.connector.provider}: ${first.error.message}`)
      .catch((err) => this.logger.warn(`failover breaker not recorded: ${(err as Error).message}`));
    const lane: Lane = { channel: chunk.lane.channel, provider: fallback.provider };
    for (let k = 0; k < moved.length; k += fallback.batchMax) {
      const indexes = moved.slice(k, k + fallback.batchMax);
      const answer = await this.call(
        fallback,
        lane,
        indexes.map((i) => chunk.messages[i]),
        control,
      );
      if (answer === 'paused') continue;
      const pause = await this.pauseForRefusals({ lane, connector: fallback }, answer);
      indexes.forEach((i, n) => {
        results[i] = answer[n];
        providers[i] = fallback.provider;
        pauses[i] = pause;
      });
    }
  }

  /** The primary's lane is paused (its 429 outlasts the breaker's cooldown): the whole chunk goes to the fallback. */
  private async failOverChunk(
    chunk: Chunk,
    fallback: Connector,
    outcomes: Outcomes,
    control: DispatchControl,
    refusals: Refusal[],
  ): Promise<void> {
    await this.breaker.countFailovers(chunk.lane, chunk.jobs.length).catch(() => undefined);
    const lane: Lane = { channel: chunk.lane.channel, provider: fallback.provider };
    for (const part of this.cut(lane, fallback, chunk.jobs, (_job, i) => chunk.messages[i]))
      await this.sendChunk(part, outcomes, control, refusals);
  }

  /** Jobs that met a paused lane (or a shutdown while waiting for their slot) go back without a provider call and without using an attempt. */
  private async holdBack(jobs: ClaimedJob[], lane: Lane, outcomes: Outcomes): Promise<void> {
    // Priorities do not bypass a pause; the claim order puts critical jobs first on resume.
    const pause = await this.pacing.pauseOf(lane);
    const runAt = pause ? this.pacing.requeueAt(pause) : new Date();
    for (const job of jobs) outcomes.requeue.push({ id: job.id, attempts: job.attempts, error: null, runAt });
  }

  /**
   * One pause per provider call, not per message: a 429 pauses the lane for Retry-After (or
   * RATE_LIMIT_PAUSE_SECS); a daily/monthly quota error pauses it until the announced reset
   * (or QUOTA_PAUSE_SECS). A successful answer's quota headers feed adaptive pacing.
   */
  private async pauseForRefusals(
    chunk: Pick<Chunk, 'lane' | 'connector'>,
    results: DeliveryResult[],
  ): Promise<LanePause | undefined> {
    const refusals = results.flatMap((r) =>
      !r.ok && (r.error.kind === 'rate_limited' || r.error.quotaExhausted) ? [r.error] : [],
    );
    if (refusals.length === 0) {
      const hint = results.findLast((r) => r.ok)?.quota;
      if (hint)
        await this.pacing
          .observe(chunk.lane, hint)
          .catch((err) => this.logger.warn(`quota hint not recorded: ${(err as Error).message}`));
      return undefined;
    }
    const quota = refusals.find((e) => e.quotaExhausted);
    const error = quota ?? refusals[0];
    // Never below MIN_PAUSE_MS: a `Retry-After: 0` (or a reset already past) would otherwise
    // re-queue the job as due at once and loop on the provider (notifyd's floor is 500 ms).
    const ms = Math.max(
      MIN_PAUSE_MS,
      ...refusals.map(
        (e) =>
          e.retryAfterMs ?? (e.quotaExhausted ? this.config.pacing.quotaPauseMs : this.config.pacing.rateLimitPauseMs),
      ),
    );
    return this.pacing.pause(
      chunk.lane,
      ms,
      quota ? 'quota_exhausted' : 'rate_limited',
      `${chunk.connector.provider}: ${error.message}`,
    );
  }

  /** One paced provider call; a throw, a timeout or a wrong result count fails every message transiently. */
  private async call(
    connector: Connector,
    lane: Lane,
    messages: OutboundMessage[],
    control: DispatchControl,
    timing?: { ms: number },
  ): Promise<DeliveryResult[] | 'paused'> {
    const permit = await this.pacing.acquire(lane, await this.costOf(connector, messages), control);
    if (!permit.granted) return 'paused';
    const failAll = (message: string): DeliveryResult[] =>
      messages.map(() => ({ ok: false, error: ProviderError.transient(message) }));
    // The provider's own time (send latency metric), without the wait for the pacing slot.
    const started = performance.now();
    try {
      const results = await withTimeout(
        connector.send(messages),
        this.config.worker.sendTimeoutMs,
        `${connector.provider} gave no answer within WORKER_SEND_TIMEOUT_MS (${this.config.worker.sendTimeoutMs} ms)`,
      );
      if (!Array.isArray(results) || results.length !== messages.length) {
        return failAll(
          `${connector.provider} connector returned ${Array.isArray(results) ? results.length : 'no'} results for ${messages.length} messages`,
        );
      }
      return results;
    } catch (err) {
      if (err instanceof ProviderError) return messages.map(() => ({ ok: false, error: err }));
      return failAll(`${connector.provider} call failed: ${(err as Error)?.message ?? String(err)}`);
    } finally {
      if (timing) timing.ms = performance.now() - started;
    }
  }

  private settle(
    provider: string,
    job: ClaimedJob,
    result: DeliveryResult,
    outcomes: Outcomes,
    pause: LanePause | undefined,
  ): void {
    if (result.ok) {
      if (result.skipped) outcomes.skipped.push({ id: job.id, attempts: job.attempts, reason: result.skipped });
      else if (result.inbox)
        outcomes.inbox.push({
          id: job.id,
          attempts: job.attempts,
          provider,
          projectId: job.projectId,
          message: result.inbox,
        });
      else
        outcomes.sent.push({
          id: job.id,
          attempts: job.attempts,
          provider,
          providerMessageId: result.providerMessageId,
        });
      return;
    }
    const error = result.error;
    if (pause && (error.kind === 'rate_limited' || error.quotaExhausted)) {
      // Not the job's fault: back to the queue without using an attempt, due when the pause ends.
      const what = error.quotaExhausted ? 'quota exhausted' : 'rate limited';
      outcomes.requeue.push({
        id: job.id,
        attempts: job.attempts,
        error: `${what}: ${error.message}`,
        runAt: this.pacing.requeueAt(pause),
        rateLimited: true,
        provider,
      });
      return;
    }
    switch (error.kind) {
      case 'rate_limited':
        // Unreachable (a rate_limited result always pauses the lane above); kept for exhaustiveness.
        outcomes.requeue.push({
          id: job.id,
          attempts: job.attempts,
          error: `rate limited: ${error.message}`,
          runAt: new Date(Date.now() + this.config.pacing.rateLimitPauseMs),
          rateLimited: true,
          provider,
        });
        return;
      case 'transient':
        outcomes.retryOrFail(job, provider, error.message, error.retryAfterMs ?? 0);
        return;
      case 'suppressed':
        outcomes.failed.push({ id: job.id, attempts: job.attempts, provider, error: `suppressed: ${error.message}` });
        return;
      case 'permanent':
        outcomes.failed.push({
          id: job.id,
          attempts: job.attempts,
          provider,
          error: error.message,
          ...(isHardBounce(job.channel, error) ? { bounced: true } : {}),
        });
        return;
    }
  }
}

/**
 * Writes outcomes in the background of a long dispatch, one flush at a time. A failed write is
 * logged and its jobs stay processing: the reaper makes them claimable again (at-least-once).
 */
class Flusher {
  private last = Date.now();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: WorkerRepository,
    private readonly events: DeliveryEvents,
    private readonly logger: Logger,
  ) {}

  due(outcomes: Outcomes): boolean {
    return outcomes.size > 0 && Date.now() - this.last >= FLUSH_EVERY_MS;
  }

  flush(outcomes: Outcomes): Promise<void> {
    this.last = Date.now();
    const batch = outcomes.drain();
    if (batch.size === 0) return this.chain;
    this.chain = this.chain.then(() => this.write(batch));
    return this.chain;
  }

  private async write(batch: Outcomes): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.repository.finalise(batch);
        await this.events.emitFinalised(batch);
        return;
      } catch (err) {
        if (attempt >= 5) {
          this.logger.error(
            `could not record ${batch.size} outcome(s); the reaper will re-queue them: ${(err as Error).message}`,
          );
          return;
        }
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
      }
    }
  }
}

const contentOf = (r: RenderOutcome | undefined) => (r && 'content' in r ? r.content : undefined);

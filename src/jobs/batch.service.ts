import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AuditService } from '../audit/audit.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { ConnectorRegistry } from '../connectors/connector-registry.js';
import type { ProjectRef } from '../projects/project.types.js';
import { addressField, addressFor } from '../subscribers/addresses.js';
import { ChatAccessService } from '../chat-bindings/chat-access.service.js';
import { SubscribersService } from '../subscribers/subscribers.service.js';
import type { BatchRequestDto, BatchResponseDto } from './dto/batch.dto.js';
import { EnqueueEvents } from './enqueue-events.js';
import type { NewJob } from './job.types.js';
import { JobsRepository } from './jobs.repository.js';
import { assertChannelOptions, buildPayload, requestedChannels } from './message-options.js';
import { MARKETING_PRIORITY, PRIORITY_NAMES, parsePriority } from './priority.js';
import { WorkerWakeup } from './worker/worker-wakeup.js';
import { PacingService } from '../pacing/pacing.service.js';
import { GovernanceService } from '../governance/governance.service.js';
import { TemplatesService } from '../templates/templates.service.js';
import { SendWindowsService } from '../governance/send-windows/send-windows.service.js';
import { CapsService } from '../governance/caps/caps.service.js';
import { SegmentsService } from '../governance/segments/segments.service.js';

/** POST /v1/batch: many subscribers in one set-based insert. */
@Injectable()
export class BatchService {
  private readonly logger = new Logger(BatchService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: ConnectorRegistry,
    private readonly subscribers: SubscribersService,
    private readonly jobs: JobsRepository,
    private readonly audit: AuditService,
    private readonly wakeup: WorkerWakeup,
    private readonly events: EnqueueEvents,
    private readonly pacing: PacingService,
    private readonly governance: GovernanceService,
    private readonly templates: TemplatesService,
    private readonly sendWindows: SendWindowsService,
    private readonly caps: CapsService,
    private readonly segments: SegmentsService,
    private readonly chatAccess: ChatAccessService,
  ) {}

  /**
   * `{segment}`: the segment is streamed by keyset pages and each page is queued as a batch of
   * its ids before the next page is read, so memory stays at one page whatever the audience.
   * Counts add up across pages; the audit log gets one entry for the whole send.
   */
  async batch(project: ProjectRef, dto: BatchRequestDto): Promise<BatchResponseDto> {
    if (dto.transactional === true) {
      throw ApiError.badRequest(
        'transactional_not_allowed',
        'transactional is not accepted by /v1/batch: a fan-out must honour opt-outs. Remove it, or send undeclinable messages one by one with POST /v1/send.',
      );
    }
    if ((dto.segment === undefined) === (dto.subscribers === undefined)) {
      throw ApiError.unprocessable('validation_failed', 'Send either subscribers (a list of ids) or segment (a filter), not both and not neither.');
    }
    if (dto.segment === undefined) return this.queue(project, dto, true);
    const segment = dto.segment;
    const total: BatchResponseDto = { ...EMPTY_RESULT, channels: requestedChannels(dto), topic: dto.topic ?? null };
    const started = Date.now();
    let pages = 0;
    const progress = () =>
      `segment batch of project ${project.id}: ${total.subscribers} subscribers read in ${pages} pages, ${total.jobs_created} jobs queued, ${total.jobs_skipped} skipped, ${((Date.now() - started) / 1000).toFixed(1)} s`;
    for await (const ids of this.segments.pages(project.id, segment)) {
      const page = await this.queue(project, { ...dto, segment: undefined, subscribers: ids }, false);
      for (const key of ['jobs_created', 'jobs_deduplicated', 'jobs_skipped', 'jobs_without_address', 'subscribers'] as const) total[key] += page[key];
      // A large audience holds the request for a while: the log shows how far it got.
      if (++pages % PROGRESS_EVERY_PAGES === 0) this.logger.log(progress());
    }
    if (pages >= PROGRESS_EVERY_PAGES) this.logger.log(`${progress()} (done)`);
    await this.audit.record({
      projectId: project.id,
      actor: 'api_key',
      action: 'batch.queued',
      metadata: { channels: total.channels, segment, subscribers: total.subscribers, created: total.jobs_created },
    });
    return total;
  }

  private async queue(project: ProjectRef, dto: BatchRequestDto, audit: boolean): Promise<BatchResponseDto> {
    const channels = requestedChannels(dto);
    assertChannelOptions(dto, channels);
    // Stricter than /send: a fan-out on a channel that cannot deliver is refused as a whole.
    const refusals = channels.map((c) => ({ channel: c, reason: this.registry.refusal(c) })).filter((r) => r.reason);
    if (refusals.length) {
      throw ApiError.unprocessable(
        'channel_not_configured',
        `Nothing was queued: ${refusals.map((r) => `${r.channel}: ${r.reason}`).join('; ')}.`,
        { skipped: refusals },
      );
    }

    // Reads that need nothing but the project start now, overlapping the ones below (each is
    // awaited where it is used; the catch only keeps an early throw from leaving it unhandled).
    const projectCaps = this.caps.list(project.id);
    const wantsIds = this.events.wantsIds(project.id);
    projectCaps.catch(() => undefined);
    const template = dto.template ? await this.templates.forSend(project.id, dto.template) : undefined;
    const topic = dto.topic ?? template?.topic ?? null;
    const ids = [...new Set(dto.subscribers ?? [])];
    const priority = parsePriority(dto.priority) ?? PRIORITY_NAMES.bulk;
    const scheduledAt = dto.scheduled_at ? new Date(dto.scheduled_at) : new Date();
    const marketing = priority >= MARKETING_PRIORITY;
    const payload = buildPayload(dto, marketing);
    // Preferences need only subscriber × channel, not addresses: read them alongside the
    // addresses (two round trips at once) and apply them after the address and suppression
    // checks, so each pair is still counted under the first rule that stops it.
    const [known, optOut] = await Promise.all([
      this.subscribers.findAddresses(project.id, ids),
      this.governance.optOutsOf(project.id, { topic, payload, templateId: dto.template ?? null }, ids),
    ]);
    // Send window (quiet hours): each recipient's first send time in their own zone.
    const window = this.sendWindows.effective(payload.send_window, project.id, project.settings.send_window);
    const rule = { marketing, transactional: payload.transactional === true };
    let firstDue = Infinity;
    let rows: NewJob[] = [];
    const rowOptedOut: boolean[] = [];
    let withoutAddress = 0;
    for (const id of ids) {
      const subscriber = known.get(id);
      const at = this.sendWindows.scheduleAt(window, rule, subscriber?.timezone, scheduledAt);
      firstDue = Math.min(firstDue, at.getTime());
      for (const channel of channels) {
        const recipient = subscriber ? addressFor(channel, subscriber) : undefined;
        if (!recipient) {
          withoutAddress++;
          continue;
        }
        rowOptedOut.push(optOut(id, channel) !== null);
        rows.push({
          channel,
          recipient,
          subscriberId: id,
          scheduledAt: at,
          idempotencyKey: dto.idempotency_key ? `${dto.idempotency_key}-${id}-${channel}` : null,
        });
      }
    }

    // The instance's chat bots reach only chats bound to this project (issue 18): a batch naming
    // another chat is refused whole, as a channel that cannot deliver is (a segment: from that page on).
    if (this.chatAccess.applies(channels)) {
      await this.chatAccess.assertBound(
        project.id,
        rows.map((r) => ({ channel: r.channel, recipient: r.recipient, field: `${addressField(r.channel, known.get(r.subscriberId!)!)} of subscriber '${r.subscriberId}'` })),
      );
    }

    // Suppressed addresses count as skipped (one query for the whole batch).
    const suppressed = await this.governance.suppressedTargets(project.id, marketing, rows);
    const before = rows.length;
    // Opted-out subscribers count as skipped too (read above, one query for the batch's preferences).
    rows = rows.filter((_, i) => !suppressed[i] && !rowOptedOut[i]);
    // Per-recipient caps: a subscriber already at a cap is skipped (the worker checks again, and counts).
    const caps = await projectCaps;
    const overCap = caps.length
      ? await this.caps.overCap(
          project.id,
          rows.map((r, i) => ({ id: String(i), projectId: project.id, subscriberId: r.subscriberId, channel: r.channel, topic })),
          caps,
        )
      : new Map<string, string>();
    rows = rows.filter((_, i) => !overCap.has(String(i)));
    const skippedCount = before - rows.length;

    for (const [i, runAt] of (await this.pacing.fairRunAts(project.id, priority, rows)).entries()) rows[i].runAt = runAt;
    const options = {
      projectId: project.id,
      payload,
      priority,
      maxAttempts: this.config.worker.maxAttempts,
      templateId: dto.template ?? null,
      topic,
    };
    let created = 0;
    if (rows.length && (await wantsIds)) {
      // Someone listens for job.queued: return the new ids (costlier than a count) and tell them.
      const ids = await this.jobs.insertIds(options, rows);
      created = ids.length;
      await this.events.emitQueued(project.id, ids);
    } else if (rows.length) {
      created = await this.jobs.insertCount(options, rows);
    }
    if (created) this.wakeup.queued(new Date(firstDue), channels);
    if (audit) {
      await this.audit.record({
        projectId: project.id,
        actor: 'api_key',
        action: 'batch.queued',
        metadata: { channels, subscribers: ids.length, created },
      });
    }
    return {
      success: true,
      jobs_created: created,
      jobs_deduplicated: rows.length - created,
      jobs_skipped: skippedCount,
      jobs_without_address: withoutAddress,
      subscribers: ids.length,
      channels,
      topic: options.topic,
    };
  }
}

/** Segment batches log their progress every this many pages (100 000 subscribers at the default page size). */
const PROGRESS_EVERY_PAGES = 20;

const EMPTY_RESULT = { success: true, jobs_created: 0, jobs_deduplicated: 0, jobs_skipped: 0, jobs_without_address: 0, subscribers: 0 } as const;

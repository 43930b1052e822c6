import { Inject, Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { Channel } from '../config/sections/connectors.config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ConnectorRegistry } from '../connectors/connector-registry.js';
import type { ProjectRef } from '../projects/project.types.js';
import { addressField, addressFor, missingAddressReason } from '../subscribers/addresses.js';
import { ChatAccessService } from '../chat-bindings/chat-access.service.js';
import { SubscribersService } from '../subscribers/subscribers.service.js';
import type { SendRequestDto, SendResponseDto, SkippedChannelDto } from './dto/send.dto.js';
import type { NewJob } from './job.types.js';
import { EnqueueEvents } from './enqueue-events.js';
import { type InsertOptions, JobsRepository } from './jobs.repository.js';
import { assertChannelOptions, assertEmailOptions, buildPayload, requestedChannels } from './message-options.js';
import { isCampaign, MARKETING_PRIORITY, PRIORITY_NAMES, parsePriority } from './priority.js';
import { OutcomeWaitService } from './wait/outcome-wait.service.js';
import { parseWait } from './wait/wait-duration.js';
import { WorkerWakeup } from './worker/worker-wakeup.js';
import { PacingService } from '../pacing/pacing.service.js';
import { GovernanceService } from '../governance/governance.service.js';
import { TemplatesService } from '../templates/templates.service.js';
import { SendWindowsService } from '../governance/send-windows/send-windows.service.js';
import { CapsService } from '../governance/caps/caps.service.js';

/** How many times an idempotent send re-tries when the key's holder changes under it. */
const IDEMPOTENCY_ROUNDS = 3;

/** POST /v1/send: one job per channel, addressed, prioritised and deduplicated. */
@Injectable()
export class EnqueueService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: ConnectorRegistry,
    private readonly subscribers: SubscribersService,
    private readonly jobs: JobsRepository,
    private readonly wakeup: WorkerWakeup,
    private readonly outcomes: OutcomeWaitService,
    private readonly events: EnqueueEvents,
    private readonly pacing: PacingService,
    private readonly governance: GovernanceService,
    private readonly templates: TemplatesService,
    private readonly sendWindows: SendWindowsService,
    private readonly caps: CapsService,
    private readonly chatAccess: ChatAccessService,
  ) {}

  async send(project: ProjectRef, dto: SendRequestDto): Promise<SendResponseDto> {
    const channels = requestedChannels(dto);
    if (!dto.to && !dto.subscriber_id) {
      throw ApiError.unprocessable('missing_recipient', "Missing 'to' or 'subscriber_id': say who receives the message.");
    }
    assertEmailOptions(dto, channels);
    assertChannelOptions(dto, channels);
    const template = dto.template ? await this.templates.forSend(project.id, dto.template) : undefined;

    const subscriber =
      !dto.to && dto.subscriber_id ? (await this.subscribers.findAddresses(project.id, [dto.subscriber_id])).get(dto.subscriber_id) : undefined;
    const skipped: SkippedChannelDto[] = [];
    let refusedForConfig = false;
    let targets: { channel: Channel; recipient: string }[] = [];
    for (const channel of channels) {
      const refusal = this.registry.refusal(channel);
      if (refusal) {
        skipped.push({ channel, reason: refusal });
        refusedForConfig = true;
        continue;
      }
      const recipient = dto.to ?? this.subscriberAddress(channel, dto.subscriber_id!, subscriber);
      if (!recipient) {
        skipped.push({ channel, reason: subscriber ? missingAddressReason(channel) : `unknown subscriber '${dto.subscriber_id}'` });
        continue;
      }
      targets.push({ channel, recipient });
    }
    if (targets.length === 0 && refusedForConfig) {
      throw ApiError.unprocessable(
        'channel_not_configured',
        `Nothing was queued: ${skipped.map((s) => `${s.channel}: ${s.reason}`).join('; ')}.`,
        { skipped },
      );
    }
    // The instance's chat bots reach only chats bound to this project (issue 18): refused whole.
    await this.chatAccess.assertBound(
      project.id,
      targets.map((t) => ({ ...t, field: subscriber ? `${addressField(t.channel, subscriber)} of subscriber '${dto.subscriber_id}'` : 'to' })),
    );

    const campaign = isCampaign(dto.tags);
    const priority = parsePriority(dto.priority) ?? (campaign ? PRIORITY_NAMES.bulk : PRIORITY_NAMES.normal);
    const marketing = priority >= MARKETING_PRIORITY || campaign;
    const requestedAt = dto.scheduled_at ? new Date(dto.scheduled_at) : new Date();
    const payload = buildPayload(dto, marketing);
    // Send window (quiet hours) in the recipient's zone: the job waits for the next opening.
    const window = this.sendWindows.effective(payload.send_window, project.id, project.settings.send_window);
    const scheduledAt = this.sendWindows.scheduleAt(window, { marketing, transactional: payload.transactional === true }, subscriber?.timezone, requestedAt);
    const options: InsertOptions = {
      projectId: project.id,
      payload,
      priority,
      maxAttempts: this.config.worker.maxAttempts,
      templateId: dto.template ?? null,
      topic: dto.topic ?? template?.topic ?? null,
    };
    // Suppressed addresses and opted-out channels (preferences; not for transactional sends)
    // are skipped, and the project's caps read for the cap check below: one round trip for the
    // three. The worker checks them all again before sending.
    const checks = await this.governance.sendChecks(
      project.id,
      { marketing, topic: options.topic, payload, templateId: options.templateId },
      targets,
      dto.subscriber_id && payload.transactional !== true ? dto.subscriber_id : null,
      dto.subscriber_id !== undefined,
    );
    for (const [i, reason] of checks.suppressed.entries()) if (reason) skipped.push({ channel: targets[i].channel, reason });
    for (const [i, reason] of checks.optedOut.entries()) if (reason && !checks.suppressed[i]) skipped.push({ channel: targets[i].channel, reason });
    targets = targets.filter((_, i) => !checks.suppressed[i] && !checks.optedOut[i]);
    const candidates: NewJob[] = targets.map((t) => ({
      channel: t.channel,
      recipient: t.recipient,
      subscriberId: dto.subscriber_id ?? null,
      scheduledAt,
      idempotencyKey: dto.idempotency_key ? `${dto.idempotency_key}-${t.channel}` : null,
    }));
    // Per-recipient caps: a channel at its cap, counting jobs accepted and not yet sent, is
    // skipped; the check and the insert share one transaction under the subscriber's lock
    // (the worker checks again, and counts).
    const { over: overCap, value: inserted } = await this.caps.enqueueUnderCaps(
      project.id,
      candidates.map((j) => ({ id: j.channel, projectId: project.id, subscriberId: j.subscriberId, channel: j.channel, topic: options.topic })),
      scheduledAt,
      candidates.flatMap((j) => (j.idempotencyKey ? [j.idempotencyKey] : [])),
      async (admitted, runner) => {
        const jobs = candidates.filter((j) => admitted.has(j.channel));
        for (const [i, runAt] of (await this.pacing.fairRunAts(project.id, priority, jobs, runner)).entries()) jobs[i].runAt = runAt;
        const result = jobs.length ? await this.insertIdempotent(options, jobs, runner) : { ids: new Map<string, string>(), created: [], deduplicated: false };
        const created = new Map([...result.ids].filter(([, id]) => result.created.includes(id)));
        return { value: { ...result, jobs }, created };
      },
      checks.caps,
    );
    for (const t of targets) if (overCap.has(t.channel)) skipped.push({ channel: t.channel, reason: overCap.get(t.channel)! });
    const { ids, created, deduplicated, jobs: newJobs } = inserted;
    await this.events.emitQueued(project.id, created);
    if (newJobs.length) this.wakeup.queued(scheduledAt, newJobs.map((j) => j.channel));

    const response: SendResponseDto = {
      success: true,
      job_ids: newJobs.map((j) => ids.get(j.channel)!),
      scheduled_at: scheduledAt.toISOString(),
      channels: newJobs.map((j) => j.channel),
      topic: options.topic,
      skipped,
      deduplicated,
    };
    // `wait`: hold the answer until the jobs are final (validated by the DTO, bounded).
    return dto.wait === undefined ? response : this.outcomes.afterSend(project.id, response, parseWait(dto.wait) ?? 0);
  }

  private subscriberAddress(channel: Channel, subscriberId: string, subscriber: Parameters<typeof addressFor>[1] | undefined) {
    if (subscriber) return addressFor(channel, subscriber);
    // An unknown subscriber can still get in-app and push: both are addressed by the id.
    return channel === 'in_app' || channel === 'push' ? subscriberId : undefined;
  }

  /**
   * Inserts the jobs; for keys already held, returns the holders' ids instead. A holder can
   * turn failed/cancelled between the insert and the lookup (freeing the key), so the
   * remaining rows are tried again a few times before giving up with 409.
   */
  private async insertIdempotent(options: InsertOptions, jobs: NewJob[], runner?: QueryRunner): Promise<{ ids: Map<string, string>; created: string[]; deduplicated: boolean }> {
    const ids = new Map<string, string>();
    const created: string[] = [];
    let remaining = jobs;
    let deduplicated = false;
    for (let round = 0; round < IDEMPOTENCY_ROUNDS && remaining.length; round++) {
      for (const row of await this.jobs.insertReturning(options, remaining, runner)) {
        ids.set(row.channel, row.id);
        created.push(row.id);
      }
      remaining = remaining.filter((j) => !ids.has(j.channel));
      if (remaining.length === 0) break;
      const held = await this.jobs.findHeldKeys(options.projectId, remaining.map((j) => j.idempotencyKey!), runner);
      for (const h of held) {
        ids.set(h.channel, h.id);
        deduplicated = true;
      }
      remaining = remaining.filter((j) => !ids.has(j.channel));
    }
    if (remaining.length) {
      throw ApiError.conflict('idempotency_contention', 'Another request with this idempotency key is changing state right now; retry the request.');
    }
    return { ids, created, deduplicated };
  }
}

import { Injectable } from '@nestjs/common';
import type { Channel } from '../../domain/channels.js';
import { isMarketingTopic } from '../../domain/marketing.js';
import { ApiError } from '../../common/errors/api-error.js';
import { ConnectorRegistry } from '../../connectors/connector-registry.js';
import { FairShareService } from '../../pacing/fair-share/fair-share.service.js';
import { SubscribersService } from '../../subscribers/subscribers.service.js';
import { TemplatesService } from '../../templates/templates.service.js';
import type { Admission, AdmissionRequest } from './admission.types.js';
import { resolveAudience, subscriberIdsOf } from './steps/audience.js';
import { ChatBindingStep } from './steps/chat-binding.step.js';
import { TelegramRouteStep } from './steps/telegram-route.step.js';
import { InsertStep } from './steps/insert.step.js';
import { RefusalsStep } from './steps/refusals.step.js';
import { RulesStep } from './steps/rules.step.js';
import { SendWindowStep } from './steps/send-window.step.js';
import { SignalStep } from './steps/signal.step.js';

/**
 * The one way a message enters the queue (issue 19). Every door — POST /v1/send and
 * /v1/schedule, /v1/batch (ids and segment pages), workflow send steps, MCP send tools, the
 * admin send-test — builds an AdmissionRequest and runs these steps in this order, so a rule is
 * written once and every door obeys it:
 *
 *   1. validate      the channels can deliver; the template exists (its topic); inline
 *                    Liquid parses
 *   2. audience      one target per recipient × channel, addressed, or skipped with the reason
 *                    (unknown subscriber, no address, an address the channel cannot take);
 *                    a chat not bound to the project refuses the request (chat bindings)
 *   3. rules         send windows, then suppressions and preferences (one read), caps (in 5)
 *   4. fair share    slots on paced lanes, in memory (FairShareService), no shared row written
 *   5. insert        one statement (concurrent single sends share it), caps under their lock
 *   6. signal        job.queued listeners, and a worker wake-up when a job is due now;
 *                    the targets refused by 2–5 are recorded (send_refusals, one statement,
 *                    none when nothing was refused) for the recipient trace
 *
 * The worker checks suppressions, preferences, windows and caps again before each send.
 */
@Injectable()
export class AdmissionService {
  constructor(
    private readonly registry: ConnectorRegistry,
    private readonly templates: TemplatesService,
    private readonly subscribers: SubscribersService,
    private readonly chatBinding: ChatBindingStep,
    private readonly telegramRoute: TelegramRouteStep,
    private readonly sendWindow: SendWindowStep,
    private readonly rules: RulesStep,
    private readonly fairShare: FairShareService,
    private readonly insert: InsertStep,
    private readonly signal: SignalStep,
    private readonly refusals: RefusalsStep,
  ) {}

  async admit(request: AdmissionRequest): Promise<Admission> {
    const unconfigured = this.unconfigured(request);
    const wantsIds = this.signal.wantsIds(request);
    wantsIds.catch(() => undefined); // awaited by the insert; an early throw must not leave it unhandled
    const [template, subscribers] = await Promise.all([
      request.templateId ? this.templates.forSend(request.project.id, request.templateId) : undefined,
      this.subscribers.findAddresses(request.project.id, subscriberIdsOf(request)),
      this.templates.checkInline(request.payload),
    ]);
    if (request.topic === null && template) request = { ...request, topic: template.topic };
    // A marketing topic (the request's or the template's) makes the message marketing, whatever its priority.
    if (!request.marketing && isMarketingTopic(request.topic))
      request = { ...request, marketing: true, payload: { ...request.payload, marketing: true } };

    const targets = resolveAudience(request, {
      subscribers,
      unconfigured,
      connectorCheck: (channel) => {
        const connector = this.registry.forChannel(channel);
        return connector?.recipientProblem ? (address) => connector.recipientProblem!(address) : undefined;
      },
    });
    // Independent (the binding rule leaves routed targets to the route rule): one round trip, not two.
    await Promise.all([
      this.chatBinding.apply(request, targets, subscribers),
      this.telegramRoute.apply(request, targets),
    ]);
    this.sendWindow.apply(request, targets);
    const { caps } = await this.rules.apply(request, targets);
    const live = targets.filter((t) => !t.skip);
    this.fairShare.slots(request.project.id, request.priority, live).forEach((at, i) => {
      if (at) live[i].runAt = at;
    });
    const inserted = await this.insert.apply(request, targets, caps, wantsIds);
    await Promise.all([this.signal.apply(request, targets, inserted), this.refusals.apply(request, targets)]);
    return { targets, topic: request.topic, created: inserted.created, createdIds: inserted.createdIds };
  }

  /** Channels that cannot deliver; a fan-out asking for one is refused whole. */
  private unconfigured(request: AdmissionRequest): Map<Channel, string> {
    const refusals = new Map<Channel, string>();
    for (const channel of request.channels) {
      // An owner's own bot carries a routed Telegram send, whether or not the instance has a bot.
      if (channel === 'telegram' && TelegramRouteStep.routed(request)) continue;
      const reason = this.registry.refusal(channel);
      if (reason) refusals.set(channel, reason);
    }
    if (refusals.size && request.unconfiguredChannels === 'refuse') {
      const skipped = [...refusals].map(([channel, reason]) => ({ channel, reason }));
      throw ApiError.unprocessable(
        'channel_not_configured',
        `Nothing was queued: ${skipped.map((s) => `${s.channel}: ${s.reason}`).join('; ')}.`,
        { skipped },
      );
    }
    return refusals;
  }
}

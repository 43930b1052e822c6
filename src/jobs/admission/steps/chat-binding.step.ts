import { Injectable } from '@nestjs/common';
import { ChatAccessService } from '../../../chat-bindings/chat-access.service.js';
import type { SubscriberAddresses } from '../../../subscribers/subscriber.types.js';
import { addressField } from '../../../subscribers/addresses.js';
import type { AdmissionRequest, Target } from '../admission.types.js';
import { TelegramRouteStep } from './telegram-route.step.js';

/**
 * The instance's chat bots reach only chats bound to the sending project (issue 18, chat
 * bindings): a request naming any other chat is refused whole with 422 chat_not_bound, naming
 * where the chat came from (`to`, or the subscriber's field). The worker checks again.
 */
@Injectable()
export class ChatBindingStep {
  constructor(private readonly chatAccess: ChatAccessService) {}

  async apply(
    request: AdmissionRequest,
    targets: readonly Target[],
    subscribers: ReadonlyMap<string, SubscriberAddresses>,
  ): Promise<void> {
    if (!this.chatAccess.applies(request.channels)) return;
    const fromTo = request.audience.kind === 'one' && request.audience.to !== undefined;
    await this.chatAccess.assertBound(
      request.project.id,
      targets
        // A routed Telegram send goes through the owner's own bot, not the instance's: no binding.
        .filter((t) => !t.skip && !(t.channel === 'telegram' && TelegramRouteStep.routed(request)))
        .map((t) => ({
          channel: t.channel,
          recipient: t.recipient,
          field:
            fromTo || t.subscriberId === null
              ? 'to'
              : `${addressField(t.channel, subscribers.get(t.subscriberId)!)} of subscriber '${t.subscriberId}'`,
        })),
    );
  }
}

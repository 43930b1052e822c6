import { randomUUID } from 'node:crypto';
import type { Connector, DeliveryResult, OutboundMessage } from '../connector.js';
import { NotifyConnector } from '../connector.decorator.js';
import { ProviderError } from '../provider-error.js';
import { SubscribersService } from '../../subscribers/subscribers.service.js';
import type { InboxDraft } from './inbox-draft.js';

/**
 * The in-app inbox (IN_APP_PROVIDER=inbox, the default). Delivering an in-app message is
 * writing it, and that write belongs with the job's own finalisation: this connector only
 * prepares the row (and refuses unknown subscribers), the worker inserts it in the statement
 * that marks the job sent. No network, so a large batch costs one subscriber lookup.
 */
@NotifyConnector()
export class InAppConnector implements Connector {
  readonly channel = 'in_app' as const;
  readonly provider = 'inbox';
  readonly batchMax = 500;
  readonly meters = 'messages' as const;

  constructor(private readonly subscribers: SubscribersService) {}

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    const known = await this.knownSubscribers(messages);
    return messages.map((message) => {
      const subscriberId = message.subscriberId ?? message.recipient;
      if (!known.has(`${message.projectId}\u0000${subscriberId}`)) {
        return {
          ok: false,
          error: ProviderError.permanent(
            `Unknown subscriber '${subscriberId}': create it with POST /v1/subscribers before sending it in-app messages.`,
            {
              deadRecipient: true,
            },
          ),
        };
      }
      const inbox = draft(message, subscriberId);
      if (!inbox.body && !inbox.title)
        return { ok: false, error: ProviderError.permanent('Nothing to show: give a body or a subject.') };
      return { ok: true, providerMessageId: inbox.messageId, inbox };
    });
  }

  /** One lookup per project in the chunk (usually one). */
  private async knownSubscribers(messages: readonly OutboundMessage[]): Promise<Set<string>> {
    const byProject = new Map<string, Set<string>>();
    for (const m of messages) {
      const ids = byProject.get(m.projectId) ?? new Set<string>();
      ids.add(m.subscriberId ?? m.recipient);
      byProject.set(m.projectId, ids);
    }
    const known = new Set<string>();
    for (const [projectId, ids] of byProject) {
      for (const id of (await this.subscribers.findAddresses(projectId, [...ids])).keys())
        known.add(`${projectId}\u0000${id}`);
    }
    return known;
  }
}

function draft(message: OutboundMessage, subscriberId: string): InboxDraft {
  const p = message.payload;
  return {
    messageId: randomUUID(),
    subscriberId,
    title: message.subject?.trim() ? message.subject : null,
    body: message.body ?? '',
    icon: typeof p.icon === 'string' && p.icon ? p.icon : 'bell',
    url: typeof p.url === 'string' && p.url ? p.url : null,
    data: (p.vars as Record<string, unknown> | undefined) ?? {},
  };
}

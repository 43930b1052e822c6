import { Inject } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { Channel } from '../domain/channels.js';
import type { Connector, DeliveryResult, OutboundMessage } from './connector.js';

/**
 * The skeleton of a connector whose provider takes one message per call (SMS, WhatsApp, chat
 * webhooks): the dispatcher hands it calls of one message (batchMax 1), and `send` answers each
 * message with its own `sendOne`, in order. A subclass names its channel and provider and says
 * how one message goes out.
 */
export abstract class OneMessageConnector implements Connector {
  abstract readonly channel: Channel;
  abstract readonly provider: string;
  readonly batchMax: number = 1;

  send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    return Promise.all(messages.map((m) => this.sendOne(m)));
  }

  protected abstract sendOne(message: OutboundMessage): Promise<DeliveryResult>;
}

/**
 * A one-message connector that works from the instance's settings (SMS, WhatsApp, chat). Nest
 * injects them through this constructor, which a subclass inherits: one that needs nothing
 * else declares no constructor, and its project's connector (forProject) is `new` with the
 * project's settings put in.
 */
export abstract class ConfiguredConnector extends OneMessageConnector {
  constructor(@Inject(APP_CONFIG) protected readonly config: AppConfig) {
    super();
  }
}

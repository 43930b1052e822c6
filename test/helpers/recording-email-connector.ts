import { Module } from '@nestjs/common';
import type { Connector, DeliveryResult, OutboundMessage } from '../../src/connectors/connector.js';
import { NotifyConnector } from '../../src/connectors/connector.decorator.js';
import { ProviderError } from '../../src/connectors/provider-error.js';

/**
 * An email provider (`EMAIL_PROVIDER=recording-email`) that records what it is handed and
 * answers each address as told: accepted, or a hard bounce for addresses in `bounce`.
 */
@NotifyConnector()
export class RecordingEmailConnector implements Connector {
  readonly channel = 'email' as const;
  readonly provider = 'recording-email';
  readonly batchMax = 10;
  messages: OutboundMessage[] = [];
  bounce = new Set<string>();

  reset(): void {
    this.messages = [];
    this.bounce.clear();
  }

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    this.messages.push(...messages);
    return messages.map((m) =>
      this.bounce.has(m.recipient.toLowerCase())
        ? { ok: false, error: ProviderError.permanent('HTTP 422: mailbox does not exist', { deadRecipient: true }) }
        : { ok: true, providerMessageId: `em_${m.jobId}` },
    );
  }
}

@Module({ providers: [RecordingEmailConnector], exports: [RecordingEmailConnector] })
export class RecordingEmailModule {}

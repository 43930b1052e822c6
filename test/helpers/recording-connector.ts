import { Module } from '@nestjs/common';
import type { Connector, DeliveryResult, OutboundMessage } from '../../src/connectors/connector.js';
import { NotifyConnector } from '../../src/connectors/connector.decorator.js';
import { ProviderError } from '../../src/connectors/provider-error.js';

/** What the scripted provider answers for a recipient; default: accept. */
export type Script = (message: OutboundMessage, call: number) => DeliveryResult | Promise<DeliveryResult>;

/**
 * A test provider registered through the public extension point (@NotifyConnector in a module
 * of its own), on the `sms` channel as provider `recording`. It records every message it is
 * handed and answers as the test scripts it, e.g. a 429 for one address.
 */
@NotifyConnector()
export class RecordingConnector implements Connector {
  readonly channel = 'sms' as const;
  readonly provider = 'recording';
  batchMax = 1;
  calls: OutboundMessage[][] = [];
  script: Script = () => ({ ok: true, providerMessageId: `rec_${Math.random().toString(36).slice(2)}` });

  get messages(): OutboundMessage[] {
    return this.calls.flat();
  }

  reset(): void {
    this.calls = [];
    this.script = () => ({ ok: true, providerMessageId: `rec_${Math.random().toString(36).slice(2)}` });
  }

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    this.calls.push([...messages]);
    const call = this.calls.length;
    return Promise.all(messages.map((m) => this.script(m, call)));
  }
}

@Module({ providers: [RecordingConnector], exports: [RecordingConnector] })
export class RecordingConnectorModule {}

export const rateLimited = (retryAfterMs?: number): DeliveryResult => ({
  ok: false,
  error: ProviderError.rateLimited('HTTP 429: slow down', retryAfterMs),
});
export const transient = (message = 'HTTP 503: unavailable'): DeliveryResult => ({
  ok: false,
  error: ProviderError.transient(message),
});
export const permanent = (message = 'HTTP 422: invalid recipient'): DeliveryResult => ({
  ok: false,
  error: ProviderError.permanent(message),
});

import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Channel, Connector, DeliveryResult, OutboundMessage } from '../connector.js';

/**
 * The `log` provider: sends nothing, accepts everything. For development, and for
 * benchmarks of the engine without a network (batchMax 100 is the Resend code path minus
 * the network; LOG_CONNECTOR_BATCH_MAX=1 mimics SMTP/SMS). The digest flags it on email.
 */
export class LogConnector implements Connector {
  readonly provider = 'log';
  private readonly logger = new Logger('LogConnector');

  constructor(
    readonly channel: Channel,
    readonly batchMax: number,
  ) {}

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    // One debug line per call, not per message: the bench pushes 20 000+ messages a second here.
    this.logger.debug(`${this.channel}: accepted ${messages.length} message(s), first job ${messages[0]?.jobId}`);
    return messages.map(() => ({ ok: true as const, providerMessageId: `log_${randomUUID()}` }));
  }
}

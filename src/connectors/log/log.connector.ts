import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { maskRecipient } from '../../common/pii/mask.js';
import type { Channel, Connector, DeliveryResult, OutboundMessage } from '../connector.js';
import { SIMULATED_SLOW_MS, simulatedAnswer, simulatedKind } from './log-simulator.js';

/** Messages printed per call; the rest are counted ("… and 95 more"), so a large batch costs a few lines. */
const PRINTED_PER_CALL = 5;
/** Characters of the body printed. */
const BODY_PREVIEW = 200;

/**
 * The `log` provider: sends nothing. For development, and for benchmarks of the engine without
 * a network (batchMax 100 is the Resend code path minus the network; LOG_CONNECTOR_BATCH_MAX=1
 * mimics SMTP/SMS). The digest flags it on email.
 *
 * It prints what it would have sent (LOG_PROVIDER_PRINT, on by default): the recipient masked,
 * the subject and the first 200 characters of the body, or "content redacted" for a project
 * that keeps no content. Email to the test recipients of log-simulator.ts answers as a real
 * provider would (bounce, complaint, transient failure, rate limit, slow); everything else is
 * accepted.
 */
export class LogConnector implements Connector {
  readonly provider = 'log';
  private readonly logger = new Logger('LogConnector');

  constructor(
    readonly channel: Channel,
    readonly batchMax: number,
    private readonly print = true,
  ) {}

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    if (this.print) this.printAll(messages);
    else this.logger.debug(`${this.channel}: accepted ${messages.length} message(s), first job ${messages[0]?.jobId}`);
    // Test recipients are email addresses: other channels never pay for the check.
    if (this.channel !== 'email') return messages.map(accepted);
    const kinds = messages.map((m) => simulatedKind(m.recipient));
    if (kinds.every((k) => k === undefined)) return messages.map(accepted);
    // A slow recipient holds the whole call, as a slow provider would.
    if (kinds.includes('slow')) await sleep(SIMULATED_SLOW_MS, undefined, { ref: false });
    return kinds.map((kind) => (kind ? simulatedAnswer(kind) : accepted()));
  }

  private printAll(messages: readonly OutboundMessage[]): void {
    for (const m of messages.slice(0, PRINTED_PER_CALL)) this.logger.log(describe(m));
    if (messages.length > PRINTED_PER_CALL)
      this.logger.log(`${this.channel}: … and ${messages.length - PRINTED_PER_CALL} more message(s) in this call`);
  }
}

const accepted = (): DeliveryResult => ({ ok: true, providerMessageId: `log_${randomUUID()}` });

/** One message as printed: never the full address, never content the project redacts. */
function describe(m: OutboundMessage): string {
  const head = `${m.channel} to ${maskRecipient(m.recipient, m.channel)} (job ${m.jobId})`;
  if (m.contentRedacted) return `${head}: content redacted (settings.rendered_content = "redact")`;
  const body = m.body ?? m.bodyHtml ?? '';
  const preview = body.length > BODY_PREVIEW ? `${body.slice(0, BODY_PREVIEW)}…` : body;
  return `${head}:${m.subject !== undefined ? ` subject ${JSON.stringify(m.subject)}` : ''} body ${JSON.stringify(preview)}`;
}

// A complete custom connector: ACME's internal SMS gateway, as an enterprise team would ship
// it in its own package. In such a package, import these from notifyd's build
// (`notifyd/dist/src/connectors/...`); here they come from the source tree.
import { Inject } from '@nestjs/common';
import type { Connector, DeliveryResult, OutboundMessage } from '../../src/connectors/connector.js';
import { NotifyConnector } from '../../src/connectors/connector.decorator.js';
import { classifyHttpStatus, headerLookup, readQuota } from '../../src/connectors/http-outcome.js';
import { ProviderError } from '../../src/connectors/provider-error.js';

/** Where the gateway is and how to authenticate; from the environment or AcmeGatewayModule.forRoot(). */
export interface AcmeGatewaySettings {
  /** Base URL, e.g. https://sms-gateway.internal.acme.example */
  url?: string;
  token?: string;
  timeoutMs?: number;
}

export const ACME_GATEWAY_SETTINGS = Symbol('ACME_GATEWAY_SETTINGS');

/** One message's result in the gateway's 200 answer. */
type GatewayResult =
  | { id: string; status: 'accepted'; message_id: string }
  | { id: string; status: 'rejected'; code: string; reason?: string };

/**
 * The gateway's per-message codes, mapped to notifyd's outcomes. Anything the gateway adds
 * later is permanent until someone maps it (an unknown code should not be retried forever).
 */
export function classifyGatewayCode(code: string, reason: string): ProviderError {
  const detail = `acme-gateway ${code}: ${reason}`;
  switch (code) {
    case 'unknown_number':
      return ProviderError.permanent(detail, { deadRecipient: true, providerCode: code });
    case 'throttled':
      return ProviderError.rateLimited(detail, undefined, { providerCode: code });
    case 'unavailable':
      return ProviderError.transient(detail, { providerCode: code });
    default: // blocked, invalid_text, …
      return ProviderError.permanent(detail, { providerCode: code });
  }
}

/**
 * SMS through ACME's gateway: `POST /v1/messages` with up to 50 messages, bearer token,
 * `Idempotency-Key` (the job ids), one result per message. HTTP errors follow notifyd's shared
 * rule (429 → rate limited with Retry-After, 5xx → transient, other 4xx → permanent).
 */
@NotifyConnector()
export class AcmeGatewayConnector implements Connector {
  readonly channel = 'sms' as const;
  readonly provider = 'acme-gateway';
  readonly batchMax = 50;

  constructor(@Inject(ACME_GATEWAY_SETTINGS) private readonly settings: AcmeGatewaySettings) {}

  /** Runs at boot only when SMS_PROVIDER (or SMS_FALLBACK_PROVIDER) is acme-gateway. */
  validateConfiguration(): void {
    if (!this.settings.url || !/^https?:\/\//.test(this.settings.url))
      throw new Error(
        'SMS_PROVIDER=acme-gateway needs ACME_GATEWAY_URL (e.g. https://sms-gateway.internal.acme.example).',
      );
    if (!this.settings.token) throw new Error('SMS_PROVIDER=acme-gateway needs ACME_GATEWAY_TOKEN.');
  }

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    const response = await fetch(`${this.settings.url!.replace(/\/+$/, '')}/v1/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.settings.token}`,
        'content-type': 'application/json',
        'idempotency-key': messages.map((m) => m.idempotencyKey).join(','),
      },
      body: JSON.stringify({
        messages: messages.map((m) => ({ id: m.jobId, to: m.recipient, text: m.body ?? '', priority: m.priority })),
      }),
      redirect: 'manual',
      signal: AbortSignal.timeout(this.settings.timeoutMs ?? 10_000),
    });
    const text = await response.text();
    const header = headerLookup(response.headers);
    const refusal = classifyHttpStatus(response.status, header, text);
    if (refusal) return messages.map(() => ({ ok: false, error: refusal }));
    const results = (JSON.parse(text) as { results: GatewayResult[] }).results;
    const byId = new Map(results.map((r) => [r.id, r]));
    const quota = readQuota(header);
    return messages.map((m): DeliveryResult => {
      const r = byId.get(m.jobId);
      if (!r) return { ok: false, error: ProviderError.transient(`acme-gateway gave no result for job ${m.jobId}`) };
      if (r.status === 'accepted') return { ok: true, providerMessageId: r.message_id, quota };
      return { ok: false, error: classifyGatewayCode(r.code, r.reason ?? 'rejected') };
    });
  }
}

import { type HttpRefusal, refusalByStatus } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';

/** Cloudflare's API envelope (developers.cloudflare.com/api): every answer, success or not. */
export interface CloudflareEnvelope {
  success?: boolean;
  errors?: { code?: number; message?: string }[];
  result?: { message_id?: string; delivered?: string[]; queued?: string[]; permanent_bounces?: string[] } | null;
}

/**
 * Cloudflare Email Service's answers to `POST /accounts/{account_id}/email/sending/send`
 * (developers.cloudflare.com/email-service/api/send-emails/rest-api/ and the API reference):
 * `{success, errors: [{code, message}], messages, result}`.
 * - 429 (code 10004) → rate_limited (Retry-After);
 * - 408, 5xx → transient;
 * - any other status (400 bad request, 401/403 token or entitlement, 404, 413) → permanent;
 * - 2xx with `success: false` → permanent, with the first error (as notifyd 0.x);
 * - 2xx with the recipient in `result.permanent_bounces` → permanent and dead: Cloudflare
 *   refused the address at once (checked by the connector, which knows the recipient).
 * The status and Cloudflare's error code are both kept in the job's error.
 */
export const classifyCloudflare: HttpRefusal = (status, body, header, now = new Date()) => {
  const envelope = (body ?? {}) as CloudflareEnvelope;
  const ok = status >= 200 && status < 300;
  if (ok && envelope.success !== false) return null;
  const first = envelope.errors?.[0];
  const code = first?.code !== undefined ? String(first.code) : undefined;
  const detail = `Cloudflare ${status}${code ? ` [${code}]` : ''}: ${(first?.message ?? (ok ? 'success: false without an error' : '')).slice(0, 500)}`;
  return refusalByStatus(status, detail, header, { providerCode: code ?? String(status) }, now);
};

/** The recipient Cloudflare bounced at once, as a dead-recipient refusal; null when it took the message. */
export function permanentBounce(envelope: CloudflareEnvelope, recipient: string): ProviderError | null {
  const bounced = envelope.result?.permanent_bounces ?? [];
  if (!bounced.some((a) => a.toLowerCase() === recipient.toLowerCase())) return null;
  return ProviderError.permanent('Cloudflare permanent bounce: the recipient address was refused', {
    deadRecipient: true,
    providerCode: 'permanent_bounce',
  });
}

import { dateOrNull, isObject, jobIdOrNull, str, type EvidenceKind, type ProviderEvent } from '../provider-event.js';

/** "User has chosen to stop receiving marketing messages" (Cloud API error 131050). */
export const WHATSAPP_MARKETING_OPT_OUT = 131050;

const KINDS: Record<string, EvidenceKind> = { delivered: 'delivered', read: 'opened', failed: 'bounced' };

/**
 * A WhatsApp Cloud API webhook (`object: whatsapp_business_account`) as evidence: one event
 * per entry of `statuses` (a webhook may carry several). A message reaches each status once, so
 * (message id, status) is the key. `delivered` stamps delivered_at, `read` opened_at, `failed`
 * bounces the job; 131050 suppresses the number for marketing messages. The job is found by
 * `biz_opaque_callback_data` when the connector set it to the job id, else by the wamid.
 * Incoming messages and other fields are acknowledged without effect.
 */
export function whatsappEvents(body: unknown): ProviderEvent[] {
  if (!isObject(body) || !Array.isArray(body.entry))
    throw new Error('a WhatsApp webhook is a JSON object with an `entry` array');
  const events: ProviderEvent[] = [];
  for (const entry of body.entry) {
    const changes = isObject(entry) && Array.isArray(entry.changes) ? entry.changes : [];
    for (const change of changes) {
      const value = isObject(change) && isObject(change.value) ? change.value : {};
      const statuses = Array.isArray(value.statuses) ? value.statuses : [];
      for (const s of statuses) {
        if (!isObject(s) || !str(s.id) || !str(s.status)) throw new Error('each status needs an `id` and a `status`');
        events.push(statusEvent(s));
      }
    }
  }
  return events;
}

function statusEvent(s: Record<string, unknown>): ProviderEvent {
  const id = s.id as string;
  const status = s.status as string;
  const kind = KINDS[status] ?? 'other';
  const errors = Array.isArray(s.errors) ? s.errors.filter(isObject) : [];
  const first = errors[0];
  const code = typeof first?.code === 'number' ? first.code : null;
  const optOut = kind === 'bounced' && errors.some((e) => e.code === WHATSAPP_MARKETING_OPT_OUT);
  return {
    provider: 'whatsapp',
    eventId: `${id}:${status}`,
    kind,
    providerType: status,
    jobId: jobIdOrNull(s.biz_opaque_callback_data),
    providerMessageId: id,
    recipients: [],
    occurredAt: dateOrNull(
      typeof s.timestamp === 'string' && /^\d+$/.test(s.timestamp) ? Number(s.timestamp) : s.timestamp,
    ),
    error:
      kind === 'bounced'
        ? `whatsapp ${code ?? 'failed'}${str(first?.title) ? `: ${first?.title as string}` : ''}`
        : null,
    // 131050 is an opt-out of marketing only: utility and authentication templates still go.
    suppress: optOut ? { channel: 'whatsapp', scope: 'marketing', reason: 'stop', addresses: [] } : null,
    payload: {
      id,
      status,
      timestamp: s.timestamp ?? null,
      errors: errors.map((e) => ({ code: e.code ?? null, title: e.title ?? null })),
    },
  };
}

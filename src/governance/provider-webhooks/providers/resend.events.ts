import { dateOrNull, isObject, jobIdOrNull, str, type EvidenceKind, type ProviderEvent } from '../provider-event.js';
import { bounceError, clickedHost, emailSuppression } from './email-evidence.js';

const KINDS: Record<string, EvidenceKind> = {
  'email.delivered': 'delivered',
  'email.bounced': 'bounced',
  'email.complained': 'complained',
  'email.opened': 'opened',
  'email.clicked': 'clicked',
};

/** Resend returns tags as `{name: value}`; older payloads and the send API use `[{name, value}]`. */
function tag(tags: unknown, name: string): unknown {
  if (Array.isArray(tags)) return tags.find((t) => isObject(t) && t.name === name)?.value;
  return isObject(tags) ? tags[name] : undefined;
}

/**
 * A Resend webhook (https://resend.com/docs/dashboard/webhooks/event-types) as evidence. The
 * svix-id is the event id. A bounce is hard unless `bounce.type` says Transient/Undetermined
 * (notifyd: Permanent when absent); hard bounces and complaints suppress every address in `to`.
 */
export function resendEvent(svixId: string, body: unknown): ProviderEvent {
  if (!isObject(body) || typeof body.type !== 'string')
    throw new Error('a Resend event is a JSON object with a string `type`');
  const data = isObject(body.data) ? body.data : {};
  const bounce = isObject(data.bounce) ? data.bounce : {};
  const recipients = (Array.isArray(data.to) ? data.to : [data.to]).filter((v): v is string => typeof v === 'string');
  let kind: EvidenceKind = KINDS[body.type] ?? 'other';
  const bounceType = str(bounce.type) ?? 'Permanent';
  if (kind === 'bounced' && bounceType !== 'Permanent') kind = 'soft_bounced';
  const error =
    body.type === 'email.bounced'
      ? bounceError(bounceType, bounce.subType, str(bounce.message) ?? 'no reason given')
      : body.type === 'email.failed'
        ? `failed: ${str((data.failed as Record<string, unknown> | undefined)?.reason) ?? str(data.error) ?? 'no reason given'}`
        : null;
  return {
    provider: 'resend',
    eventId: svixId,
    kind,
    providerType: body.type,
    jobId: jobIdOrNull(tag(data.tags, 'notifyd_job_id')),
    providerMessageId: str(data.email_id),
    recipients,
    occurredAt: dateOrNull(body.created_at),
    error,
    suppress: emailSuppression(kind, recipients),
    payload: {
      type: body.type,
      created_at: body.created_at ?? null,
      email_id: data.email_id ?? null,
      bounce: Object.keys(bounce).length
        ? { type: bounce.type ?? null, subType: bounce.subType ?? null, message: bounce.message ?? null }
        : undefined,
      click: isObject(data.click) ? clickedHost(data.click.link) : undefined,
    },
  };
}

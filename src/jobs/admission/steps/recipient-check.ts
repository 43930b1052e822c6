import type { Channel } from '../../../domain/channels.js';
import { normaliseAddress } from '../../../governance/suppressions/suppression-address.js';

/**
 * Whether an address can be delivered on a channel, decided at the door so that a bad address
 * is a 422 (or a skipped recipient of a fan-out) and never a job that fails at the worker.
 * `connectorCheck` is the selected connector's own rule (a Telegram chat id, a webhook URL on
 * an allowed host), when it has one.
 */
export type RecipientCheck = { ok: true; address: string } | { ok: false; problem: string };

export function checkRecipient(
  channel: Channel,
  raw: string,
  connectorCheck?: (address: string) => string | undefined,
): RecipientCheck {
  const address = raw.trim();
  if (!address) return { ok: false, problem: 'is empty' };
  if (channel === 'email' || channel === 'sms' || channel === 'whatsapp') {
    const normalised = normaliseAddress(channel, address);
    if (!normalised.ok) return { ok: false, problem: normalised.message };
    // Phones are stored in E.164 (the form every SMS and WhatsApp provider takes); an email
    // keeps its case (the provider's business), only trimmed.
    if (channel !== 'email') return check(normalised.address, connectorCheck);
  }
  return check(address, connectorCheck);
}

function check(address: string, connectorCheck?: (address: string) => string | undefined): RecipientCheck {
  const problem = connectorCheck?.(address);
  return problem ? { ok: false, problem } : { ok: true, address };
}

/** Channels whose address is a subscriber id: the subscriber must exist (its inbox, its devices). */
export function addressedBySubscriberId(channel: Channel): boolean {
  return channel === 'in_app' || channel === 'push';
}

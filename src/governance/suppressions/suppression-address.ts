import type { Channel } from '../../domain/channels.js';

/** E.164: a plus sign, then 7–15 digits, not starting with 0. */
const E164 = /^\+[1-9]\d{6,14}$/;
/** Deliberately loose (one @, a dot in the domain, no spaces): providers decide the rest. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type AddressCheck = { ok: true; address: string } | { ok: false; message: string };

/**
 * The form an address is stored and compared in, per channel, so that `Jane@Example.com` and
 * `jane@example.com`, or `+33 6 12 34 56 78` and `+33612345678`, are one suppression:
 * - email: trimmed and lower-cased (notifyd's rule; providers treat addresses so in practice);
 * - sms, whatsapp: E.164, after dropping spaces, dots, dashes, brackets and a `whatsapp:` prefix;
 * - telegram, slack, discord: the chat id or webhook as given, trimmed (case matters there);
 * - in_app, push: the subscriber id (push fans out to its devices; a dead device token is
 *   removed by the push connector, not suppressed).
 */
export function normaliseAddress(channel: Channel, raw: string): AddressCheck {
  const value = raw.trim();
  if (!value)
    return {
      ok: false,
      message: 'address is empty; give the email, phone number, chat id or subscriber id to suppress',
    };
  if (value.length > 1000) return { ok: false, message: 'address is longer than 1000 characters' };
  switch (channel) {
    case 'email': {
      const email = value.toLowerCase();
      return EMAIL.test(email)
        ? { ok: true, address: email }
        : { ok: false, message: 'must be an email address such as jane@example.com' };
    }
    case 'sms':
    case 'whatsapp': {
      const phone = value.replace(/^whatsapp:/i, '').replace(/[\s.()-]/g, '');
      return E164.test(phone)
        ? { ok: true, address: phone }
        : { ok: false, message: 'must be an E.164 phone number: a + then 7 to 15 digits, e.g. +33612345678' };
    }
    default:
      return { ok: true, address: value };
  }
}

/** The normalised address, or the raw one when it does not parse (the probe then simply finds nothing). */
export function lookupAddress(channel: Channel, raw: string): string {
  const check = normaliseAddress(channel, raw);
  return check.ok ? check.address : raw.trim();
}

import { maskEmail, maskPhone } from '../common/pii/mask.js';

/**
 * What never reaches a log line. pino removes these paths from every object it logs (request
 * headers carrying keys or tokens, and any field named like a secret), whatever the caller
 * passed; message strings are masked for personal data by `maskPii`.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.api_key',
  '*.apiKey',
  '*.password',
  '*.secret',
  '*.token',
  '*.access_token',
  '*.auth_token',
  '*.private_key',
];

/** The longest request URL a log line carries: a longer one is cut, with a marker, before it is masked. */
export const MAX_LOGGED_URL_CHARS = 2_048;
/** The longest message or stack a log line carries (cut the same way). */
export const MAX_LOGGED_TEXT_CHARS = 16_384;

/*
 * Every quantifier below has an upper bound, and no pattern nests one quantifier in another, so
 * a match attempt from one position costs at most a constant and masking is linear in the
 * (already capped) input. The old `[A-Za-z0-9._%+-]+@…` was retried from every position of a
 * long run and scanned the whole run each time: ~165 ms of CPU for one 15 000-character path.
 * An address is only tried where a run of local-part characters starts (the lookbehind), so a
 * run costs one attempt, not one per character. The bounds are the protocol limits (RFC 5321:
 * 64-character local part, 253-character domain, 63-character label): a longer "local part" is
 * not an address and is left as it is.
 */
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}/g;
const PHONE = /\+\d{7,15}\b/g;
/** One query parameter: separator, name, value (both at most the URL cap). */
const QUERY_PARAM = /([?&])([^=&#\s]{1,2048})=([^&#\s]{0,2048})/g;
/** Parameter names whose values are credentials: stream tickets, subscriber tokens, verify tokens, keys, signatures. */
const SECRET_PARAM_NAME = /token|ticket|secret|key|sig|password|hash|auth/i;
/** Paths whose last segment is a bearer secret: one-click unsubscribe (/u/<token>), preference pages (/p/<token>) and tracking links (/t/o/, /t/c/). */
const SECRET_PATH = /^(\/(?:[up]|t\/[oc])\/)[^/?#]{1,2048}/;
/** Characters of an address, number or token: a cut backs off over them rather than leave half of one unmasked. */
const TOKEN_CHAR = /[A-Za-z0-9._%+@-]/;

/** The patterns run on logged text, for the spec that checks their quantifiers are bounded. */
export const LOG_PATTERNS: readonly RegExp[] = [EMAIL, PHONE, QUERY_PARAM, SECRET_PARAM_NAME, SECRET_PATH, TOKEN_CHAR];

/**
 * `text` cut to at most `max` characters with a marker saying how many were left out. The cut
 * backs off (at most the length of an email address) to the start of the token it falls in,
 * so that the masks never see, and so never miss, half an address or number.
 */
export function capForLog(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const floor = Math.max(0, max - 320);
  while (end > floor && TOKEN_CHAR.test(text[end - 1])) end--;
  return `${text.slice(0, end)}…[${text.length - end} more characters not logged]`;
}

/** Masks email addresses and E.164 numbers in free text: `j***@example.com`, `***5678`. Long text is cut first. */
export function maskPii(text: string): string {
  return capForLog(text, MAX_LOGGED_TEXT_CHARS)
    .replace(EMAIL, (m) => maskEmail(m))
    .replace(PHONE, (m) => maskPhone(m));
}

/**
 * A request URL as it may be logged: cut to MAX_LOGGED_URL_CHARS, the bearer secret of
 * unsubscribe and tracking paths and credential-bearing query values removed, personal data masked.
 */
export function loggableUrl(url: string): string {
  const path = capForLog(url, MAX_LOGGED_URL_CHARS).replace(SECRET_PATH, '$1[redacted]');
  const query = path.replace(QUERY_PARAM, (whole, separator: string, name: string) =>
    SECRET_PARAM_NAME.test(name) ? `${separator}${name}=[redacted]` : whole,
  );
  return maskPii(query);
}

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

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const PHONE = /\+\d{7,15}\b/g;
/** Query parameters whose values are credentials (stream tickets, subscriber tokens, signed links). */
const SECRET_QUERY = /([?&](?:ticket|token|key|api_key|signature|sig)=)[^&#\s]*/gi;

/** Masks email addresses and E.164 numbers in free text: `j***@example.com`, `***5678`. */
export function maskPii(text: string): string {
  return text.replace(EMAIL, (m) => maskEmail(m)).replace(PHONE, (m) => maskPhone(m));
}

/** A URL as it may be logged: credential-bearing query values removed, personal data masked. */
export function loggableUrl(url: string): string {
  return maskPii(url.replace(SECRET_QUERY, '$1[redacted]'));
}

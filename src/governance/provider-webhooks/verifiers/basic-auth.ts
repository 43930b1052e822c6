import { header, safeEqual, VerificationError } from './verification.js';

/**
 * HTTP Basic credentials on the webhook URL (Postmark: `https://user:pass@host/webhooks/postmark`;
 * Postmark sends them as an Authorization header). Compared in constant time, both parts.
 */
export function verifyBasicAuth(
  headers: Record<string, string | string[] | undefined>,
  username: string,
  password: string,
): void {
  const value = header(headers, 'authorization');
  if (!value)
    throw new VerificationError(
      'missing Authorization header (put the credentials in the webhook URL: https://user:password@host/webhooks/postmark)',
    );
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value);
  if (!match) throw new VerificationError('Authorization is not Basic credentials');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon < 0 ? decoded : decoded.slice(0, colon);
  const pass = colon < 0 ? '' : decoded.slice(colon + 1);
  // Both compared whatever the first result, so the time does not say which one was wrong.
  const ok = [safeEqual(user, username), safeEqual(pass, password)];
  if (!ok.every(Boolean)) throw new VerificationError('wrong webhook credentials');
}

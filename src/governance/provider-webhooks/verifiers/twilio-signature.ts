import twilio from 'twilio';
import { VerificationError } from './verification.js';

/**
 * Twilio's request signature (`X-Twilio-Signature`): base64 HMAC-SHA1, keyed with the auth
 * token, of the full public URL followed by every POST parameter name and value in name
 * order. Checked with the official SDK's validateRequest (constant time; it also tries the URL
 * with and without the default port, as Twilio may sign either). The URL is rebuilt from
 * PUBLIC_URL and the request path, never from the Host header a caller controls.
 */
export function verifyTwilioSignature(authToken: string, signature: string | undefined, url: string, params: Record<string, string>): void {
  if (!signature) throw new VerificationError('missing X-Twilio-Signature header');
  if (!twilio.validateRequest(authToken, signature, url, params)) throw new VerificationError('X-Twilio-Signature does not match the URL and parameters');
}

import { VerificationError } from './verification.js';

/**
 * The twilio SDK, imported on the first Twilio webhook rather than at boot: an api replica that
 * never receives one never loads it (the SMS connector loads it on first use too).
 */
let validator:
  Promise<(authToken: string, signature: string, url: string, params: Record<string, string>) => boolean> | undefined;

/**
 * Twilio's request signature (`X-Twilio-Signature`): base64 HMAC-SHA1, keyed with the auth
 * token, of the full public URL followed by every POST parameter name and value in name
 * order. Checked with the official SDK's validateRequest (constant time; it also tries the URL
 * with and without the default port, as Twilio may sign either). The URL is rebuilt from
 * PUBLIC_URL and the request path, never from the Host header a caller controls.
 */
export async function verifyTwilioSignature(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: Record<string, string>,
): Promise<void> {
  if (!signature) throw new VerificationError('missing X-Twilio-Signature header');
  // A failed import is not kept: the next webhook tries again instead of failing until a restart.
  validator ??= import('twilio').then(
    ({ default: twilio }) => twilio.validateRequest,
    (err: unknown) => {
      validator = undefined;
      throw err;
    },
  );
  const validateRequest = await validator;
  if (!validateRequest(authToken, signature, url, params))
    throw new VerificationError('X-Twilio-Signature does not match the URL and parameters');
}

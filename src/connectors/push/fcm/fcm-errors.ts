import { type HeaderLookup, parseRetryAfter } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';

/** FCM asks for at least a minute before retrying a quota refusal without Retry-After. */
const QUOTA_BACKOFF_MS = 60_000;

interface FcmErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: { '@type'?: string; errorCode?: string }[] };
}

/** FCM's own code (details[].errorCode of type FcmError), else the Google API status. */
export function fcmErrorCode(body: unknown): string | undefined {
  const error = (body as FcmErrorBody | undefined)?.error;
  const fcm = error?.details?.find((d) => d?.['@type']?.endsWith('google.firebase.fcm.v1.FcmError'))?.errorCode;
  return fcm ?? error?.status;
}

/**
 * FCM HTTP v1 refusals (firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode):
 * - UNREGISTERED (404), SENDER_ID_MISMATCH (403): the token is gone or belongs to another
 *   project → permanent, dead (deleted);
 * - QUOTA_EXCEEDED (429): rate limited, Retry-After or at least one minute;
 * - UNAVAILABLE (503), INTERNAL (500), any 5xx: transient, Retry-After honoured;
 * - INVALID_ARGUMENT (400): the request is wrong → permanent, token kept;
 * - THIRD_PARTY_AUTH_ERROR (401): the APNs or web push credentials in Firebase are wrong →
 *   permanent, kept; PERMISSION_DENIED (403): the service account may not send → permanent.
 * (UNAUTHENTICATED, our own access token refused, is renewed and retried by the sender.)
 */
export function classifyFcmRefusal(
  status: number,
  header: HeaderLookup,
  body: unknown,
  now = new Date(),
): ProviderError {
  const code = fcmErrorCode(body);
  const message = (body as FcmErrorBody | undefined)?.error?.message;
  const detail = `FCM HTTP ${status}${code ? ` ${code}` : ''}${message ? `: ${message.slice(0, 300)}` : ''}`;
  const retryAfterMs = parseRetryAfter(header('retry-after'), now);
  const options = { providerCode: code };
  switch (code) {
    case 'UNREGISTERED':
    case 'SENDER_ID_MISMATCH':
      return ProviderError.permanent(`${detail} (token deleted)`, { ...options, deadRecipient: true });
    case 'QUOTA_EXCEEDED':
      return ProviderError.rateLimited(detail, retryAfterMs ?? QUOTA_BACKOFF_MS, options);
    case 'UNAVAILABLE':
    case 'INTERNAL':
      return ProviderError.transient(detail, { ...options, retryAfterMs });
    case 'THIRD_PARTY_AUTH_ERROR':
      return ProviderError.permanent(
        `${detail} (check the APNs/web push credentials in the Firebase console)`,
        options,
      );
    case 'PERMISSION_DENIED':
      return ProviderError.permanent(
        `${detail} (the service account may not send: give it the Firebase Cloud Messaging API Admin role)`,
        options,
      );
  }
  if (status === 404) return ProviderError.permanent(`${detail} (token deleted)`, { ...options, deadRecipient: true });
  if (status === 429) return ProviderError.rateLimited(detail, retryAfterMs ?? QUOTA_BACKOFF_MS, options);
  if (status === 408 || status >= 500) return ProviderError.transient(detail, { ...options, retryAfterMs });
  return ProviderError.permanent(detail, options);
}

import { type HttpRefusal, parseRetryAfter, refusalByStatus } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';

/**
 * Amazon SES v2 errors. A refused request answers an HTTP status with the exception's name in
 * `x-amzn-ErrorType` (or `__type` in the body) and `{"message": …}`
 * (docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html#API_SendEmail_Errors):
 * - TooManyRequestsException (429), ThrottlingException, LimitExceededException for the sending
 *   rate ("Maximum sending rate exceeded") → rate_limited;
 * - LimitExceededException for the daily quota ("Daily message quota exceeded") → quota pause;
 * - SendingPausedException, AccountSuspendedException → quota pause: nothing will go out until the
 *   operator acts in the AWS console, so the lane rests instead of failing the queue;
 * - MessageRejected, MailFromDomainNotVerifiedException, BadRequestException, NotFoundException,
 *   403 (signature, access) → permanent;
 * - 5xx (InternalFailure, ServiceUnavailable) and 408 → transient.
 * SES reports bounces later (by event), so nothing here is a dead recipient.
 */
export const classifySesHttp: HttpRefusal = (status, body, header, now = new Date()) => {
  if (status >= 200 && status < 300) return null;
  const b = (body ?? {}) as { message?: string; Message?: string; __type?: string };
  const type = (header('x-amzn-errortype') ?? b.__type ?? '').split(':')[0].split('#').pop() || `HTTP ${status}`;
  const message = b.message ?? b.Message ?? '';
  const detail = `SES ${status} ${type}: ${message.slice(0, 500)}`;
  const retryAfterMs = parseRetryAfter(header('retry-after'), now);
  if (type === 'LimitExceededException' && /daily/i.test(message))
    return ProviderError.rateLimited(detail, retryAfterMs, { quotaExhausted: true, providerCode: type });
  if (
    status === 429 ||
    type === 'TooManyRequestsException' ||
    type === 'ThrottlingException' ||
    type === 'LimitExceededException'
  ) {
    return ProviderError.rateLimited(detail, retryAfterMs, { providerCode: type });
  }
  if (type === 'SendingPausedException' || type === 'AccountSuspendedException')
    return ProviderError.rateLimited(detail, undefined, { quotaExhausted: true, providerCode: type });
  return refusalByStatus(status, detail, header, { providerCode: type }, now);
};

/** SES v2 `BulkEmailEntryResult.Status` per entry (API_BulkEmailEntryResult). */
export function classifySesBulkStatus(status: string, error: string | undefined): ProviderError | null {
  const detail = `SES bulk ${status}: ${(error ?? '').slice(0, 500)}`;
  switch (status) {
    case 'SUCCESS':
      return null;
    case 'ACCOUNT_THROTTLED':
      return ProviderError.rateLimited(detail, undefined, { providerCode: status });
    case 'ACCOUNT_DAILY_QUOTA_EXCEEDED':
    case 'ACCOUNT_SENDING_PAUSED':
    case 'ACCOUNT_SUSPENDED':
    case 'CONFIGURATION_SET_SENDING_PAUSED':
      return ProviderError.rateLimited(detail, undefined, { quotaExhausted: true, providerCode: status });
    case 'TRANSIENT_FAILURE':
    case 'FAILED':
      return ProviderError.transient(detail, { providerCode: status });
    default:
      // MESSAGE_REJECTED, MAIL_FROM_DOMAIN_NOT_VERIFIED, CONFIGURATION_SET_DOES_NOT_EXIST,
      // TEMPLATE_DOES_NOT_EXIST, INVALID_SENDING_POOL_NAME, INVALID_PARAMETER and any new status.
      return ProviderError.permanent(detail, { providerCode: status });
  }
}

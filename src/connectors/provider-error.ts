/**
 * How a provider refused a message, and so what the worker does with the job:
 * - rate_limited: pause the lane for retryAfterMs, re-queue without consuming an attempt;
 * - transient: retry with backoff until max_attempts, then fail;
 * - permanent: fail now (deadRecipient: the address or token will never work again);
 * - suppressed: never sent, recorded as failed without calling the provider.
 */
export type ProviderErrorKind = 'rate_limited' | 'transient' | 'permanent' | 'suppressed';

export interface ProviderErrorOptions {
  retryAfterMs?: number;
  deadRecipient?: boolean;
  /** A daily/monthly cap was hit: the lane pauses until retryAfterMs instead of retrying. */
  quotaExhausted?: boolean;
  /** Provider's own error code, e.g. Twilio 21610, for evidence and suppressions. */
  providerCode?: string;
}

export class ProviderError extends Error {
  readonly retryAfterMs?: number;
  readonly deadRecipient: boolean;
  readonly quotaExhausted: boolean;
  readonly providerCode?: string;

  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    options: ProviderErrorOptions = {},
  ) {
    super(message);
    this.name = 'ProviderError';
    this.retryAfterMs = options.retryAfterMs;
    this.deadRecipient = options.deadRecipient ?? false;
    this.quotaExhausted = options.quotaExhausted ?? false;
    this.providerCode = options.providerCode;
  }

  static rateLimited(message: string, retryAfterMs?: number, options: Omit<ProviderErrorOptions, 'retryAfterMs'> = {}) {
    return new ProviderError('rate_limited', message, { ...options, retryAfterMs });
  }
  static transient(message: string, options?: ProviderErrorOptions) {
    return new ProviderError('transient', message, options);
  }
  static permanent(message: string, options?: ProviderErrorOptions) {
    return new ProviderError('permanent', message, options);
  }
  static suppressed(message: string) {
    return new ProviderError('suppressed', message);
  }
}

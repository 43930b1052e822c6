/**
 * Every failure of a notifyd call: an HTTP error answered by notifyd (`status` ≥ 400, `code` is
 * its stable `error` code such as `validation_failed` or `rate_limited`, `message` says what to
 * fix and names the field), or no answer at all (`status` 0, `code` `network_error` or `timeout`).
 */
export class NotifydError extends Error {
  override readonly name = 'NotifydError';

  constructor(
    /** The HTTP status; 0 when no answer came. */
    readonly status: number,
    /** notifyd's `error` code. */
    readonly code: string,
    message: string,
    /** The `x-request-id` of the answer (quote it when asking an operator). */
    readonly requestId: string | null,
    /** The rest of the error body (e.g. `retry_after`). */
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

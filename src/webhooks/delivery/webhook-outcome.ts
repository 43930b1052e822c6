import { parseRetryAfter } from '../../connectors/http-outcome.js';

/** What one delivery attempt came to, and so what happens to the delivery and its endpoint. */
export type AttemptOutcome =
  /** 2xx: done. */
  | { kind: 'delivered'; statusCode: number }
  /** Anything else the receiver may recover from: try again later (Retry-After honoured). */
  | { kind: 'retry'; statusCode: number | null; error: string; retryAfterMs?: number }
  /** 410 Gone, or a target notifyd refuses to reach: the endpoint is disabled, no retry. */
  | { kind: 'disable'; statusCode: number | null; error: string };

/**
 * Standard Webhooks' rules for an answer: 2xx is success; a redirect is a failure and is never
 * followed (a receiver that moved must be re-registered, or a redirect could steer requests
 * at an internal address); 410 Gone disables the endpoint; every other status is retried,
 * after the receiver's Retry-After when it sends one (429, 503…).
 */
export function classifyResponse(
  status: number,
  retryAfter: string | null,
  bodySnippet: string,
  location?: string | null,
): AttemptOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered', statusCode: status };
  const detail = bodySnippet ? `: ${bodySnippet}` : '';
  if (status === 410) {
    return {
      kind: 'disable',
      statusCode: status,
      error: `HTTP 410 Gone${detail} — the receiver asked to stop; fix it and re-enable the endpoint`,
    };
  }
  if (status >= 300 && status < 400) {
    const where = location ? ` to ${redirectHost(location)}` : '';
    return {
      kind: 'retry',
      statusCode: status,
      error: `HTTP ${status} redirect${where} not followed; register the final URL instead`,
    };
  }
  return {
    kind: 'retry',
    statusCode: status,
    error: `HTTP ${status}${detail}`,
    retryAfterMs: parseRetryAfter(retryAfter),
  };
}

/** A redirect target shown by host only: its path or query may carry a secret. */
function redirectHost(location: string): string {
  try {
    return new URL(location).host || 'a relative location';
  } catch {
    return 'an invalid location';
  }
}

import type { QuotaHint } from '../connectors/connector.js';

/** Share of the computed sustainable rate actually used: calls already in flight spend some. */
const SAFETY = 0.9;
/** Floor for an adaptive rate, so a lane never stalls on a rounding of `remaining`. */
const MIN_RATE = 0.01;

export type AdaptiveDecision =
  | { action: 'none' }
  /** The window's quota is (nearly) spent: stop until the provider's reset. */
  | { action: 'pause'; ms: number; reason: string }
  /** Slow to `rate` until the reset. */
  | { action: 'slow'; rate: number; ms: number }
  /** The provider has room for the configured rate: drop any adaptive rate. */
  | { action: 'clear' };

/**
 * What the provider's remaining-quota headers (ratelimit-remaining/-reset, x-ratelimit-*)
 * mean for a lane configured at `configuredRate` tokens/s: spread what is left of the window
 * over the time until it resets, keeping a margin (5 % of the limit, at least one call) for
 * calls already in flight and for other clients of the same account.
 */
export function adaptiveDecision(
  hint: QuotaHint | undefined,
  configuredRate: number,
  now: number = Date.now(),
): AdaptiveDecision {
  if (!hint || hint.remaining === undefined || !hint.resetAt) return { action: 'none' };
  const ms = hint.resetAt.getTime() - now;
  if (ms <= 0) return { action: 'none' };
  const margin = Math.max(1, Math.ceil((hint.limit ?? 0) * 0.05));
  const usable = hint.remaining - margin;
  if (usable <= 0) {
    return {
      action: 'pause',
      ms,
      reason: `provider quota nearly spent (${hint.remaining}${hint.limit !== undefined ? ` of ${hint.limit}` : ''} left until reset)`,
    };
  }
  const sustainable = (usable / (ms / 1000)) * SAFETY;
  if (sustainable >= configuredRate) return { action: 'clear' };
  return { action: 'slow', rate: Math.max(MIN_RATE, sustainable), ms };
}

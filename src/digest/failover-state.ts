import type { BreakerView } from './digest.types.js';

/**
 * Where the digest reads failover breakers from: bound in DigestModule to BreakerFailoverState
 * (the connectors' FailoverBreaker and <CHANNEL>_FALLBACK_PROVIDER). A token rather than the
 * class, so the findings can be exercised with any source.
 */
export const FAILOVER_STATE = Symbol('notifyd:failover-state');

export interface FailoverStateSource {
  breakerStates(): BreakerView[] | Promise<BreakerView[]>;
  /** The fallback provider configured for a channel, if any. */
  fallbackProvider?(channel: string): string | null | undefined;
}

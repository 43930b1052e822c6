import type { BreakerView } from './digest.types.js';

/**
 * Where the digest reads failover breakers from. The connectors' failover breaker binds this
 * token (`{ provide: FAILOVER_STATE, useExisting: … }`); until a module does, the digest shows
 * no breaker and no fallback provider.
 */
export const FAILOVER_STATE = Symbol('notifyd:failover-state');

export interface FailoverStateSource {
  breakerStates(): BreakerView[] | Promise<BreakerView[]>;
  /** The fallback provider configured for a channel, if any. */
  fallbackProvider?(channel: string): string | null | undefined;
}

import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { Channel } from '../domain/channels.js';
import { FailoverBreaker } from '../connectors/failover/failover-breaker.js';
import type { BreakerView } from './digest.types.js';
import type { FailoverStateSource } from './failover-state.js';

/** The digest's view of the connectors' failover breaker and the configured fallbacks. */
@Injectable()
export class BreakerFailoverState implements FailoverStateSource {
  constructor(
    private readonly breaker: FailoverBreaker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async breakerStates(): Promise<BreakerView[]> {
    return (await this.breaker.breakerStates()).map((b) => ({
      channel: b.channel,
      primary: b.projectId ? `${b.provider} (project ${b.projectId})` : b.provider,
      fallback: b.fallbackProvider,
      state: b.resting ? 'open' : 'closed',
      resting_seconds: b.resting ? Math.max(0, Math.round(b.restingSeconds)) : null,
    }));
  }

  fallbackProvider(channel: string): string | null {
    return this.config.failover.fallbacks[channel as Channel] ?? null;
  }
}

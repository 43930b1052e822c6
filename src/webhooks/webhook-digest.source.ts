import { Injectable } from '@nestjs/common';
import { WebhooksRepository } from './webhooks.repository.js';

/** A disabled endpoint as the digest reports it: host only (a path may carry a token). */
export interface DisabledEndpoint {
  id: string;
  projectId: string;
  host: string;
  disabledAt: Date;
  reason: string;
}

/** An endpoint paused by its circuit breaker, as the digest reports it: host only, like a disabled one. */
export interface PausedEndpoint {
  id: string;
  projectId: string;
  host: string;
  /** The failed attempt that set the current pause. */
  lastFailureAt: Date | null;
  pausedUntil: Date;
  consecutiveFailures: number;
}

/**
 * Feeds the operator digest's webhook findings (the operators issue binds it to
 * DIGEST_WEBHOOK_SOURCE): every endpoint switched off by notifyd or by hand, and every enabled
 * endpoint its circuit breaker pauses now (its events wait: without the digest they are simply late).
 */
@Injectable()
export class WebhookDigestSource {
  constructor(private readonly repository: WebhooksRepository) {}

  async disabledEndpoints(): Promise<DisabledEndpoint[]> {
    return (await this.repository.disabledEndpoints()).map((e) => ({
      id: e.id,
      projectId: e.projectId,
      host: hostOf(e.url),
      disabledAt: new Date(e.disabledAt),
      reason: e.disabledReason ?? 'disabled',
    }));
  }

  async pausedEndpoints(): Promise<PausedEndpoint[]> {
    return (await this.repository.pausedEndpoints()).map((e) => ({
      id: e.id,
      projectId: e.projectId,
      host: hostOf(e.url),
      lastFailureAt: e.lastFailureAt ? new Date(e.lastFailureAt) : null,
      pausedUntil: new Date(e.pausedUntil),
      consecutiveFailures: e.consecutiveFailures,
    }));
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid url';
  }
}

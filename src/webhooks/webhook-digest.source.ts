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

/**
 * Feeds the operator digest's "webhook endpoint disabled" finding (the operators issue binds
 * it to DIGEST_WEBHOOK_SOURCE): every endpoint switched off by notifyd or by hand.
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
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid url';
  }
}

import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InvalidatedCache } from '../common/cache/invalidated-cache.js';
import { SignalsService } from '../database/signals/signals.service.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** Other processes forget what they know of a project's endpoints on this signal (key = project id). */
const ENDPOINTS_CHANGED = 'webhooks.endpoints';
/**
 * How long a process may reuse "does this project subscribe to job.queued". A change through
 * the API reaches this process at once and the others by signal; this bounds a lost signal.
 */
const SUBSCRIPTION_CACHE_MS = 5_000;
const SUBSCRIPTION_CACHE_ENTRIES = 10_000;

/**
 * Whether a project has an enabled endpoint for an event, asked on the enqueue hot path (every
 * /v1/send emits job.queued): without this, each send paid a round trip to find no endpoint
 * (issue 9). Endpoint changes call changed(); an endpoint the delivery worker disables is
 * seen late, which only costs an emit that queues nothing.
 */
@Injectable()
export class WebhookSubscriptions implements OnModuleInit {
  private readonly wanted = new InvalidatedCache<boolean>(SUBSCRIPTION_CACHE_MS, SUBSCRIPTION_CACHE_ENTRIES);

  constructor(
    private readonly repository: WebhooksRepository,
    private readonly signals: SignalsService,
  ) {}

  onModuleInit(): void {
    this.signals.subscribe(ENDPOINTS_CHANGED, {
      received: (projectId) => this.wanted.drop(projectId),
      resync: () => this.wanted.clear(),
    });
  }

  wants(projectId: string, type: string): Promise<boolean> {
    return this.wanted.get(`${projectId}\n${type}`, async () => ({
      value: await this.repository.wantsEvent(projectId, type),
      tag: projectId,
    })) as Promise<boolean>;
  }

  /** After a committed change to the endpoints of a project: here at once, elsewhere by signal. */
  changed(projectId: string): void {
    this.wanted.drop(projectId);
    this.signals.send(ENDPOINTS_CHANGED, projectId);
  }
}

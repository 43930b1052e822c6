import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';

/**
 * Open-stream slots of this process: at most INBOX_MAX_STREAMS_PER_SUBSCRIBER per subscriber and
 * INBOX_MAX_STREAMS_PER_PROJECT per project. Per process on purpose: a stream is a socket and
 * memory of this process, which is what the caps protect, and a count shared through PostgreSQL
 * would need leases to survive a process that dies with streams open. (Opening a stream also
 * spends the project's rate_limit_per_min, which is shared.) A slot is taken before the stream's
 * first query and given back when its socket closes.
 */
@Injectable()
export class StreamSlots {
  private readonly bySubscriber = new Map<string, number>();
  private readonly byProject = new Map<string, number>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Takes a slot or throws a 429 naming the limit; returns the release (safe to call twice). */
  take(projectId: string, subscriberId: string): () => void {
    const { maxStreamsPerSubscriber, maxStreamsPerProject } = this.config.inbox;
    const subscriberKey = `${projectId}/${subscriberId}`;
    const subscriberCount = this.bySubscriber.get(subscriberKey) ?? 0;
    const projectCount = this.byProject.get(projectId) ?? 0;
    if (subscriberCount >= maxStreamsPerSubscriber) {
      throw tooMany(
        `Subscriber '${subscriberId}' already has the ${maxStreamsPerSubscriber} open streams INBOX_MAX_STREAMS_PER_SUBSCRIBER allows on this server: close one (another tab or device) and retry, or raise the limit.`,
      );
    }
    if (projectCount >= maxStreamsPerProject) {
      throw tooMany(
        `Project '${projectId}' already has the ${maxStreamsPerProject} open streams INBOX_MAX_STREAMS_PER_PROJECT allows on this server: retry later, or raise the limit.`,
      );
    }
    this.bySubscriber.set(subscriberKey, subscriberCount + 1);
    this.byProject.set(projectId, projectCount + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.bySubscriber, subscriberKey);
      decrement(this.byProject, projectId);
    };
  }
}

function tooMany(message: string): ApiError {
  return new ApiError(HttpStatus.TOO_MANY_REQUESTS, 'too_many_streams', message);
}

function decrement(map: Map<string, number>, key: string): void {
  const n = (map.get(key) ?? 1) - 1;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { assertWebPushEndpoint } from '../common/ssrf/web-push-endpoint-policy.js';
import { assertResolvesPublic, type Resolver, systemResolver } from '../common/ssrf/guarded-lookup.js';
import { UnsafeUrlError } from '../common/ssrf/unsafe-url.error.js';
import { sqlState } from '../database/db.js';
import type { RegisterPushTokenDto } from './dto/push-token.dto.js';
import { toRegistration } from './push-token-rules.js';
import {
  type DeadPushToken,
  type PushTokenRow,
  type SubscriberKey,
  subscriberKey,
} from '../domain/push-token.types.js';
import { PushTokensRepository } from './push-tokens.repository.js';
import { isUuid } from '../domain/ids.js';

/** Devices a subscriber can be pushed to: registration (validated), listing, deletion. */
@Injectable()
export class PushTokensService {
  private resolver: Resolver = systemResolver;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: PushTokensRepository,
  ) {}

  /** Tests resolve host names through a scripted resolver (no real DNS). */
  useResolver(resolver: Resolver): void {
    this.resolver = resolver;
  }

  async register(projectId: string, dto: RegisterPushTokenDto): Promise<{ row: PushTokenRow; created: boolean }> {
    const registration = toRegistration(dto);
    if (registration.endpoint)
      registration.endpoint = registration.token = await this.checkEndpoint(registration.endpoint);
    try {
      return await this.repository.upsert(projectId, registration);
    } catch (err) {
      if (sqlState(err) === '23503') {
        throw ApiError.notFound('Subscriber', dto.subscriber_id.slice(0, 255));
      }
      throw err;
    }
  }

  list(projectId: string, subscriberId: string): Promise<PushTokenRow[]> {
    return this.repository.forSubscriber(projectId, subscriberId);
  }

  /** notifyd answers success whether or not the device existed (a client may retry a delete). */
  async delete(projectId: string, id: string): Promise<void> {
    if (!isUuid(id)) return;
    await this.repository.delete(projectId, id);
  }

  /**
   * The push connector's view: every device of each subscriber, most recently used first, in
   * one query for a whole batch of jobs. Keyed by subscriberKey(); a subscriber without
   * devices has no entry.
   */
  async devicesOf(keys: readonly SubscriberKey[]): Promise<Map<string, PushTokenRow[]>> {
    const unique = new Map(keys.map((k) => [subscriberKey(k), k]));
    const devices = new Map<string, PushTokenRow[]>();
    for (const { projectId, ...row } of await this.repository.forSubscribers([...unique.values()])) {
      const key = subscriberKey({ projectId, subscriberId: row.subscriberId });
      const list = devices.get(key);
      if (list) list.push(row);
      else devices.set(key, [row]);
    }
    return devices;
  }

  /** Deletes devices a provider declared gone (any projects, one statement); returns how many were deleted. */
  deleteDead(tokens: readonly DeadPushToken[]): Promise<number> {
    return this.repository.deleteDead(tokens);
  }

  /**
   * The SSRF guard's literal checks and the push-service allow-list, then a courtesy
   * resolution: a name that resolves to a private address is refused now rather than at the
   * first send (the guarded agent checks again at connect time either way).
   */
  private async checkEndpoint(endpoint: string): Promise<string> {
    const policy = { httpsOnly: this.config.outbound.httpsOnly, allowLoopback: this.config.outbound.allowLoopback };
    try {
      const url = assertWebPushEndpoint(endpoint, policy, this.config.pushProviders.webPushHosts);
      try {
        await assertResolvesPublic(url, policy, this.resolver);
      } catch (err) {
        // A push service name that does not resolve right now is a DNS hiccup, not an attack.
        if (!/non-public/.test((err as Error).message)) return url.toString();
        throw err;
      }
      return url.toString();
    } catch (err) {
      if (err instanceof UnsafeUrlError) {
        throw ApiError.unprocessable(
          'unsafe_url',
          `endpoint is refused: ${err.message}. A web push endpoint must be an https URL on a browser push service.`,
        );
      }
      throw err;
    }
  }
}

import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AuditService } from '../audit/audit.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { decodeTimeIdCursor } from '../common/pagination/cursor.js';
import { type CursorPage, timeIdPage } from '../common/pagination/cursor-page.js';
import { assertResolvesPublic } from '../common/ssrf/guarded-lookup.js';
import { assertPublicHttpUrl } from '../common/ssrf/public-url.js';
import { UnsafeUrlError } from '../common/ssrf/unsafe-url.error.js';
import type { Actor } from '../domain/actor.js';
import { WebhookDeliveryWorker } from './delivery/webhook-delivery.worker.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { ALL_EVENTS, isWebhookEventType, WEBHOOK_EVENT_TYPES } from '../domain/webhook-event-types.js';
import { encryptSecret, generateSecret, isValidSecret, secretHint, secretsKey } from './webhook-secrets.js';
import type { DeliveryRow, EndpointRow } from './webhook.types.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { isUuid } from '../domain/ids.js';

/**
 * Endpoints one project may have. Every event is queued once per subscribed endpoint, so
 * without a bound one key could register thousands of endpoints on one host and turn each send
 * into thousands of POSTs to it (and each into a delivery row and a worker slot).
 */
export const MAX_ENDPOINTS_PER_PROJECT = 50;

/** Default overlap of a rotation: the old secret keeps signing for a day. */
const DEFAULT_OVERLAP_SECONDS = 86_400;

export interface EndpointInput {
  url?: string;
  events?: string[];
  enabled?: boolean;
  description?: string | null;
  secret?: string;
  signature_format?: 'standard' | 'notifyd-0x';
}

/**
 * Endpoint rules: URLs pass the SSRF guard when registered (a clear 422; the guard runs again
 * at every connection), events are known names, secrets are shown once and stored encrypted.
 * `projectId` scopes every call; null is an operator acting across projects.
 */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly worker: WebhookDeliveryWorker,
    private readonly audit: AuditService,
    private readonly subscriptions: WebhookSubscriptions,
  ) {}

  async create(projectId: string, input: EndpointInput, by: Actor): Promise<{ endpoint: EndpointRow; secret: string }> {
    const url = await this.checkUrl(input.url!);
    const events = checkEvents(input.events!);
    const signatureFormat = input.signature_format ?? 'standard';
    // A notifyd 0.x receiver holds a 0.x secret (32 hex): any 16–200 characters are accepted for such an endpoint.
    const secretOk = (s: string) =>
      signatureFormat === 'notifyd-0x' ? s.length >= 16 && s.length <= 200 && !/\s/.test(s) : isValidSecret(s);
    if (input.secret !== undefined && !secretOk(input.secret)) {
      throw ApiError.unprocessable(
        'invalid_secret',
        signatureFormat === 'notifyd-0x'
          ? "secret must be 16–200 characters without spaces (the 0.x endpoint's secret); omit it to have one generated."
          : 'secret must be whsec_ followed by 24–64 random bytes in base64; omit it to have one generated.',
      );
    }
    const secret = input.secret ?? generateSecret();
    const id = randomUUID();
    const endpoint = await this.repository.insertEndpoint(
      {
        id,
        projectId,
        url,
        description: input.description ?? null,
        events,
        enabled: input.enabled ?? true,
        secretEnc: encryptSecret(this.key(), id, secret),
        secretHint:
          signatureFormat === 'notifyd-0x' && !secret.startsWith('whsec_')
            ? `…${secret.slice(-4)}`
            : secretHint(secret),
        signatureFormat,
      },
      MAX_ENDPOINTS_PER_PROJECT,
    );
    if (!endpoint)
      throw ApiError.unprocessable(
        'too_many_webhooks',
        `A project has at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints: delete one it no longer uses, or subscribe an existing endpoint to more events.`,
        { limit: MAX_ENDPOINTS_PER_PROJECT },
      );
    this.subscriptions.changed(projectId);
    await this.audit.record({
      ...by,
      projectId,
      action: 'webhook.created',
      resource: id,
      metadata: { host: new URL(url).host, events },
    });
    return { endpoint, secret };
  }

  list(projectId: string | null, enabled?: boolean): Promise<EndpointRow[]> {
    return this.repository.listEndpoints(projectId, enabled);
  }

  async get(id: string, projectId: string | null): Promise<EndpointRow> {
    assertId(id, 'Webhook endpoint');
    const endpoint = await this.repository.findEndpoint(id, projectId);
    if (!endpoint) throw ApiError.notFound('Webhook endpoint', id);
    return endpoint;
  }

  async update(id: string, projectId: string | null, input: EndpointInput, by: Actor): Promise<EndpointRow> {
    assertId(id, 'Webhook endpoint');
    const url = input.url !== undefined ? await this.checkUrl(input.url) : undefined;
    const events = input.events !== undefined ? checkEvents(input.events) : undefined;
    const reason = `disabled by ${by.actor}`;
    const endpoint = await this.repository.updateEndpoint(id, projectId, {
      url,
      events,
      enabled: input.enabled,
      description: input.description !== undefined ? { value: input.description } : undefined,
      disabledReason: reason,
    });
    if (!endpoint) throw ApiError.notFound('Webhook endpoint', id);
    this.subscriptions.changed(endpoint.projectId);
    if (input.enabled === false) await this.repository.cancelQueued(id, reason);
    await this.audit.record({
      ...by,
      projectId: endpoint.projectId,
      action: 'webhook.updated',
      resource: id,
      metadata: { fields: Object.keys(input) },
    });
    return endpoint;
  }

  async delete(id: string, projectId: string | null, by: Actor): Promise<void> {
    const endpoint = await this.get(id, projectId);
    await this.repository.deleteEndpoint(id, projectId);
    this.subscriptions.changed(endpoint.projectId);
    await this.audit.record({ ...by, projectId: endpoint.projectId, action: 'webhook.deleted', resource: id });
  }

  /**
   * A new secret, shown once. During the overlap both secrets sign every message (two
   * `v1,` signatures), so receivers can switch at their pace; 0 drops the old one at once.
   */
  async rotateSecret(
    id: string,
    projectId: string,
    overlapSeconds: number | undefined,
    by: Actor,
  ): Promise<{ endpoint: EndpointRow; secret: string }> {
    assertId(id, 'Webhook endpoint');
    const secret = generateSecret();
    const validUntil = new Date(Date.now() + (overlapSeconds ?? DEFAULT_OVERLAP_SECONDS) * 1000);
    const endpoint = await this.repository.rotateSecret(
      id,
      projectId,
      encryptSecret(this.key(), id, secret),
      secretHint(secret),
      validUntil,
    );
    if (!endpoint) throw ApiError.notFound('Webhook endpoint', id);
    await this.audit.record({
      ...by,
      projectId,
      action: 'webhook.secret_rotated',
      resource: id,
      metadata: { overlap_seconds: overlapSeconds ?? DEFAULT_OVERLAP_SECONDS },
    });
    return { endpoint, secret };
  }

  /** `projectId` null: an operator's read, any project's endpoint. */
  async deliveries(
    endpointId: string,
    projectId: string | null,
    limit: number,
    cursor: string | undefined,
    status: string | undefined,
  ): Promise<CursorPage<DeliveryRow>> {
    await this.get(endpointId, projectId);
    const after = cursor ? decodeTimeIdCursor(cursor) : undefined;
    const rows = await this.repository.listDeliveries(endpointId, limit + 1, after, status);
    return timeIdPage(rows, limit);
  }

  async delivery(endpointId: string, deliveryId: string, projectId: string | null): Promise<DeliveryRow> {
    await this.get(endpointId, projectId);
    assertId(deliveryId, 'Delivery');
    const row = await this.repository.findDelivery(deliveryId, endpointId);
    if (!row) throw ApiError.notFound('Delivery', deliveryId);
    return row;
  }

  /** Sends a failed or cancelled delivery again, same webhook-id, fresh attempts. */
  async redeliver(endpointId: string, deliveryId: string, projectId: string | null, by: Actor): Promise<DeliveryRow> {
    const endpoint = await this.get(endpointId, projectId);
    if (!endpoint.enabled)
      throw ApiError.conflict(
        'endpoint_disabled',
        `Endpoint ${endpointId} is disabled; re-enable it with PATCH first.`,
      );
    assertId(deliveryId, 'Delivery');
    const row = await this.repository.redeliver(deliveryId, endpointId);
    if (!row) {
      const existing = await this.repository.findDelivery(deliveryId, endpointId);
      if (!existing) throw ApiError.notFound('Delivery', deliveryId);
      throw ApiError.conflict(
        'not_redeliverable',
        `Delivery is ${existing.status}; only failed or cancelled deliveries can be sent again.`,
      );
    }
    this.worker.wake();
    await this.audit.record({
      ...by,
      projectId: endpoint.projectId,
      action: 'webhook.redelivered',
      resource: deliveryId,
    });
    return row;
  }

  private key(): Buffer {
    const key = secretsKey(this.config.webhooks.secretKey, this.config.auth.jwtSecret);
    if (!key)
      throw ApiError.unavailable(
        'webhooks_disabled',
        'Webhook secrets need an encryption key: set WEBHOOK_SECRET_KEY (openssl rand -base64 32) or JWT_SECRET and restart.',
      );
    return key;
  }

  /** The guard's literal check, then a courtesy resolution (a name that resolves privately is refused now, not at first delivery). */
  private async checkUrl(raw: string): Promise<string> {
    try {
      const url = assertPublicHttpUrl(raw, {
        httpsOnly: this.config.outbound.httpsOnly,
        allowLoopback: this.config.outbound.allowLoopback,
      });
      try {
        await assertResolvesPublic(
          url,
          { allowLoopback: this.config.outbound.allowLoopback },
          this.sender.currentResolver,
        );
      } catch (err) {
        // A name that does not resolve yet is the receiver's business: deliveries will retry.
        if (!/non-public/.test((err as Error).message)) return url.toString();
        throw err;
      }
      return url.toString();
    } catch (err) {
      if (err instanceof UnsafeUrlError)
        throw ApiError.unprocessable(
          'unsafe_url',
          `url is refused: ${err.message}. Webhooks must reach a public http(s) address.`,
        );
      throw err;
    }
  }
}

function checkEvents(events: string[]): string[] {
  const unknown = events.filter((e) => e !== ALL_EVENTS && !isWebhookEventType(e));
  if (unknown.length) {
    throw ApiError.unprocessable(
      'unknown_event',
      `Unknown event(s) ${unknown.join(', ')}; use ${WEBHOOK_EVENT_TYPES.join(', ')} or "*" for all.`,
    );
  }
  return [...new Set(events)];
}

function assertId(id: string, what: string): void {
  if (!isUuid(id)) throw ApiError.notFound(what, id.slice(0, 60));
}

import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { Db } from '../database/db.js';
import * as deliveries from './sql/deliveries.sql.js';
import * as emit from './sql/emit.sql.js';
import * as endpoints from './sql/endpoints.sql.js';
import type { ClaimedDelivery, DeliveryRow, EndpointRow, EndpointSecrets, NewEndpoint } from './webhook.types.js';

export interface EndpointPatch {
  url?: string;
  description?: { value: string | null };
  events?: string[];
  enabled?: boolean;
  disabledReason?: string;
}

/** One attempt's result as the finalise statement takes it. */
export interface DeliveryUpdate {
  id: string;
  attempts: number;
  status: 'delivered' | 'retry' | 'failed' | 'cancelled';
  runAt: Date | null;
  statusCode: number | null;
  error: string | null;
  entry: object;
}

/** All SQL of outbound webhooks: endpoints, emission, the delivery queue and its log. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Db) {}

  /** The new endpoint, or undefined when the project has `max` endpoints already. */
  insertEndpoint(e: NewEndpoint, max: number): Promise<EndpointRow | undefined> {
    return this.db.one<EndpointRow>(endpoints.INSERT_ENDPOINT, [
      e.id,
      e.projectId,
      e.url,
      e.description,
      e.events,
      e.enabled,
      e.secretEnc,
      e.secretHint,
      e.signatureFormat,
      max,
    ]);
  }

  findEndpoint(id: string, projectId: string | null): Promise<EndpointRow | undefined> {
    return this.db.one<EndpointRow>(endpoints.FIND_ENDPOINT, [id, projectId]);
  }

  listEndpoints(projectId: string | null, enabled?: boolean): Promise<EndpointRow[]> {
    return this.db.rows<EndpointRow>(endpoints.LIST_ENDPOINTS, [projectId, enabled ?? null]);
  }

  updateEndpoint(id: string, projectId: string | null, p: EndpointPatch): Promise<EndpointRow | undefined> {
    return this.db.one<EndpointRow>(endpoints.UPDATE_ENDPOINT, [
      id,
      projectId,
      p.url ?? null,
      p.description !== undefined,
      p.description?.value ?? null,
      p.events ?? null,
      p.enabled ?? null,
      p.disabledReason ?? null,
    ]);
  }

  async deleteEndpoint(id: string, projectId: string | null): Promise<boolean> {
    return (await this.db.rows(endpoints.DELETE_ENDPOINT, [id, projectId])).length > 0;
  }

  rotateSecret(
    id: string,
    projectId: string,
    secretEnc: Buffer,
    secretHint: string,
    previousValidUntil: Date,
  ): Promise<EndpointRow | undefined> {
    return this.db.one<EndpointRow>(endpoints.ROTATE_SECRET, [
      id,
      projectId,
      secretEnc,
      previousValidUntil,
      secretHint,
    ]);
  }

  endpointSecrets(ids: string[]): Promise<EndpointSecrets[]> {
    return this.db.rows<EndpointSecrets>(endpoints.ENDPOINT_SECRETS, [ids]);
  }

  disabledEndpoints(): Promise<
    { id: string; projectId: string; url: string; disabledAt: Date; disabledReason: string | null }[]
  > {
    return this.db.rows(endpoints.DISABLED_ENDPOINTS);
  }

  pausedEndpoints(): Promise<
    {
      id: string;
      projectId: string;
      url: string;
      lastFailureAt: Date | null;
      pausedUntil: Date;
      consecutiveFailures: number;
    }[]
  > {
    return this.db.rows(endpoints.PAUSED_ENDPOINTS);
  }

  emitEvents(
    events: { projectId: string; type: string; data: object; at: Date }[],
    maxAttempts: number,
    runner?: QueryRunner,
  ): Promise<number> {
    return this.db.exec(
      emit.EMIT_EVENTS,
      [
        events.map((e) => e.projectId),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => e.at.toISOString()),
        maxAttempts,
      ],
      runner,
    );
  }

  /** `runner` queues the deliveries inside the caller's transaction. */
  emitJobEvents(
    events: { jobId: string; type: string; extra?: object }[],
    maxAttempts: number,
    runner?: QueryRunner,
  ): Promise<number> {
    return this.db.exec(
      emit.EMIT_JOB_EVENTS,
      [
        events.map((e) => e.jobId),
        events.map((e) => e.type),
        events.map((e) => (e.extra ? JSON.stringify(e.extra) : null)),
        maxAttempts,
      ],
      runner,
    );
  }

  async wantsEvent(projectId: string, type: string): Promise<boolean> {
    return (await this.db.one<{ wanted: boolean }>(emit.WANTS_EVENT, [projectId, type]))?.wanted ?? false;
  }

  /** Claims due deliveries; those of a paused endpoint come back `deferred` (not claimed). */
  claim(limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    return this.db.rows<ClaimedDelivery>(deliveries.CLAIM_DELIVERIES, [limit, leaseSeconds]);
  }

  async finalise(updates: DeliveryUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    const byId: Record<string, object> = {};
    for (const u of updates)
      byId[u.id] = {
        a: u.attempts,
        s: u.status,
        t: u.runAt?.toISOString() ?? null,
        c: u.statusCode,
        e: u.error,
        l: u.entry,
      };
    await this.db.exec(deliveries.FINALISE_DELIVERIES, [updates.map((u) => u.id), byId]);
  }

  /** Claimed deliveries given back unattempted (their endpoint's breaker tripped mid-batch), due at `runAt`. */
  async hold(held: { id: string; attempts: number; runAt: Date }[]): Promise<void> {
    if (held.length === 0) return;
    const byId: Record<string, object> = {};
    for (const h of held) byId[h.id] = { a: h.attempts, t: h.runAt.toISOString() };
    await this.db.exec(deliveries.HOLD_DELIVERIES, [held.map((h) => h.id), byId]);
  }

  /**
   * `failed`: endpoint id → failed attempts of this batch, for endpoints with no success in it;
   * `pause`: the circuit breaker's rule (delivery/webhook-pause.ts).
   */
  async touchEndpoints(
    succeeded: string[],
    failed: Map<string, number>,
    pause: { afterFailures: number; scheduleMs: number[] },
  ): Promise<void> {
    if (succeeded.length === 0 && failed.size === 0) return;
    await this.db.exec(deliveries.TOUCH_ENDPOINTS, [
      succeeded,
      [...failed.keys()],
      [...failed.values()],
      pause.afterFailures,
      pause.scheduleMs,
    ]);
  }

  disableEndpoints(
    list: { id: string; reason: string }[],
  ): Promise<{ id: string; projectId: string; reason: string; cancelled: number }[]> {
    if (list.length === 0) return Promise.resolve([]);
    return this.db.rows(deliveries.DISABLE_ENDPOINTS, [list.map((d) => d.id), list.map((d) => d.reason)]);
  }

  cancelQueued(endpointId: string, reason: string): Promise<number> {
    return this.db.exec(deliveries.CANCEL_QUEUED, [endpointId, reason]);
  }

  reap(leaseSeconds: number, limit: number): Promise<number> {
    return this.db.exec(deliveries.REAP_DELIVERIES, [leaseSeconds, limit]);
  }

  purge(before: Date, limit: number): Promise<number> {
    return this.db.exec(deliveries.PURGE_DELIVERIES, [before, limit]);
  }

  listDeliveries(
    endpointId: string,
    limit: number,
    after: { createdAt: string; id: string } | undefined,
    status: string | undefined,
  ): Promise<DeliveryRow[]> {
    return this.db.rows<DeliveryRow>(deliveries.LIST_DELIVERIES, [
      endpointId,
      limit,
      after?.createdAt ?? null,
      after?.id ?? null,
      status ?? null,
    ]);
  }

  findDelivery(id: string, endpointId: string): Promise<DeliveryRow | undefined> {
    return this.db.one<DeliveryRow>(deliveries.FIND_DELIVERY, [id, endpointId]);
  }

  redeliver(id: string, endpointId: string): Promise<DeliveryRow | undefined> {
    return this.db.one<DeliveryRow>(deliveries.REDELIVER, [id, endpointId]);
  }
}

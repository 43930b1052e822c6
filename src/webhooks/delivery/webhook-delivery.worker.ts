import { Inject, Injectable } from '@nestjs/common';
import { SignalsService } from '../../database/signals/signals.service.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { PeriodicTasks } from '../../periodic/periodic-tasks.service.js';
import { QueueTableWorker } from '../../periodic/queue-table-worker.js';
import { runPool } from '../../jobs/worker/pool.js';
import { decryptWithAny, secretsKeys } from '../webhook-secrets.js';
import { type ClaimedDelivery, type EndpointSecrets, webhookId } from '../webhook.types.js';
import { type DeliveryUpdate, WebhooksRepository } from '../webhooks.repository.js';
import {
  trippedDuringBatch,
  WEBHOOK_PAUSE_AFTER_FAILURES,
  webhookPauseMs,
  webhookPauseScheduleMs,
} from './webhook-pause.js';
import { webhookRetryDelayMs } from './webhook-retry.js';
import { WebhookSender } from './webhook-sender.js';
import { legacySignatureHeader, webhookHeaders } from './webhook-signature.js';

/** Signal topic: deliveries were queued (any replica's sender may take them now). */
const DUE_TOPIC = 'webhooks.due';

/** The circuit breaker's rule as the endpoint-health statement takes it. */
const PAUSE_RULE = { afterFailures: WEBHOOK_PAUSE_AFTER_FAILURES, scheduleMs: webhookPauseScheduleMs() };

/** What one claimed batch did, for tests and logs. */
export interface DeliveryRound {
  claimed: number;
  delivered: number;
  retried: number;
  failed: number;
  /** Due deliveries held back because their endpoint is paused (not attempted, attempts untouched). */
  deferred: number;
  /** Claimed deliveries given back unattempted: this batch's own failures paused their endpoint first. */
  held: number;
  disabledEndpoints: string[];
}

/**
 * Sends queued deliveries (worker role): claim a batch (SKIP LOCKED), sign and POST each with
 * bounded concurrency, then write every outcome in one statement, touch endpoint health, and
 * disable endpoints that answered 410, pointed at a refused address, or failed for a day.
 * Endpoint health is also a circuit breaker: after WEBHOOK_PAUSE_AFTER_FAILURES failed attempts
 * in a row an endpoint is paused (webhook-pause.ts); the claim then defers its deliveries
 * instead of claiming them, and sends one probe when the pause ends.
 * Nothing is held open across a request. A lease reaper and the log's retention run once per
 * minute on one replica (the `webhook-maintenance` periodic task).
 */
@Injectable()
export class WebhookDeliveryWorker extends QueueTableWorker {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: WebhooksRepository,
    private readonly sender: WebhookSender,
    periodic: PeriodicTasks,
    signals: SignalsService,
  ) {
    super(
      {
        logName: 'Webhooks',
        what: 'webhook delivery round',
        topic: DUE_TOPIC,
        maintenanceTask: 'webhook-maintenance',
        table: repository,
        // A delivery's request ends within its timeout; twice that and a minute means its worker died.
        // Also how long a probe holds its endpoint's pause: no second probe while the first is out.
        leaseSeconds: Math.ceil((config.webhooks.timeoutMs * 2) / 1000) + 60,
        retentionDays: config.webhooks.retentionDays,
        batchSize: config.webhooks.batchSize,
        pollIntervalMs: config.webhooks.pollIntervalMs,
      },
      config.server.role,
      periodic,
      signals,
    );
  }

  /** Rows claimed or deferred: either way the batch made progress, and more may be due. */
  protected async claimRound(): Promise<number> {
    const round = await this.round();
    return round.claimed + round.deferred;
  }

  /** Sends everything due now; for tests and tools that drive the sender by hand. */
  async drainOnce(): Promise<DeliveryRound> {
    const total: DeliveryRound = {
      claimed: 0,
      delivered: 0,
      retried: 0,
      failed: 0,
      deferred: 0,
      held: 0,
      disabledEndpoints: [],
    };
    for (;;) {
      const round = await this.round();
      if (round.claimed + round.deferred === 0) return total;
      total.deferred += round.deferred;
      total.held += round.held;
      total.claimed += round.claimed;
      total.delivered += round.delivered;
      total.retried += round.retried;
      total.failed += round.failed;
      total.disabledEndpoints.push(...round.disabledEndpoints);
    }
  }

  /** Claims one batch, sends it, records it. */
  async round(): Promise<DeliveryRound> {
    const rows = await this.repository.claim(this.config.webhooks.batchSize, this.queue.leaseSeconds);
    const claimed = rows.filter((d) => !d.deferred);
    const round: DeliveryRound = {
      claimed: claimed.length,
      delivered: 0,
      retried: 0,
      failed: 0,
      deferred: rows.length - claimed.length,
      held: 0,
      disabledEndpoints: [],
    };
    if (claimed.length === 0) return round;
    const endpoints = new Map(
      (await this.repository.endpointSecrets([...new Set(claimed.map((d) => d.endpointId))])).map((e) => [e.id, e]),
    );
    const secrets = new Map<string, string[]>();
    const updates: DeliveryUpdate[] = [];
    const disable = new Map<string, string>();
    const succeeded = new Set<string>();
    /** Endpoint id → failed attempts in this batch (the circuit breaker counts attempts). */
    const failures = new Map<string, number>();
    const held: { id: string; attempts: number; runAt: Date }[] = [];

    await runPool(claimed, this.config.webhooks.concurrency, async (delivery) => {
      const endpoint = endpoints.get(delivery.endpointId);
      if (!endpoint?.enabled) {
        updates.push(this.update(delivery, 'cancelled', null, null, 'endpoint disabled before this attempt', 0));
        return;
      }
      const failedHere = failures.get(endpoint.id) ?? 0;
      if (!succeeded.has(endpoint.id) && trippedDuringBatch(endpoint.consecutiveFailures, failedHere)) {
        // The fifth failure in a row landed while this batch was out: the rest of it waits for the pause.
        const pauseMs = webhookPauseMs(endpoint.consecutiveFailures + failedHere);
        held.push({ id: delivery.id, attempts: delivery.attempts, runAt: new Date(Date.now() + pauseMs) });
        round.held++;
        return;
      }
      const started = Date.now();
      const body = JSON.stringify(delivery.payload);
      const endpointSecrets = this.secretsOf(endpoint, secrets);
      const headers = webhookHeaders(endpointSecrets, webhookId(delivery.id), body);
      if (endpoint.signatureFormat === 'notifyd-0x')
        Object.assign(headers, legacySignatureHeader(endpointSecrets[0], body));
      const outcome = await this.sender.post(endpoint.url, body, headers);
      const took = Date.now() - started;
      if (outcome.kind === 'delivered') {
        succeeded.add(endpoint.id);
        round.delivered++;
        updates.push(this.update(delivery, 'delivered', null, outcome.statusCode, null, took));
        return;
      }
      failures.set(endpoint.id, (failures.get(endpoint.id) ?? 0) + 1);
      if (outcome.kind === 'disable') {
        disable.set(endpoint.id, outcome.error);
        round.failed++;
        updates.push(this.update(delivery, 'failed', null, outcome.statusCode, outcome.error, took));
        return;
      }
      if (delivery.attempts >= delivery.maxAttempts) {
        round.failed++;
        updates.push(
          this.update(
            delivery,
            'failed',
            null,
            outcome.statusCode,
            `${outcome.error} (gave up after ${delivery.attempts} attempts)`,
            took,
          ),
        );
        // A day of failures with no success since this event was queued: the receiver is gone.
        if (!endpoint.lastSuccessAt || endpoint.lastSuccessAt < delivery.createdAt) {
          disable.set(
            endpoint.id,
            `every attempt failed for a day (${delivery.attempts} attempts); last error: ${outcome.error}`,
          );
        }
        return;
      }
      round.retried++;
      const runAt = new Date(Date.now() + webhookRetryDelayMs(delivery.attempts, outcome.retryAfterMs));
      updates.push(this.update(delivery, 'retry', runAt, outcome.statusCode, outcome.error, took));
    });

    await this.repository.finalise(updates);
    await this.repository.hold(held);
    // A success in the batch outweighs its failures: the receiver answers, so no pause.
    for (const id of succeeded) failures.delete(id);
    await this.repository.touchEndpoints([...succeeded], failures, PAUSE_RULE);
    if (disable.size) {
      const off = await this.repository.disableEndpoints([...disable].map(([id, reason]) => ({ id, reason })));
      for (const e of off) {
        round.disabledEndpoints.push(e.id);
        this.logger.warn(
          `disabled webhook endpoint ${e.id} of project ${e.projectId}: ${e.reason} (${e.cancelled} queued deliveries cancelled)`,
        );
      }
    }
    return round;
  }

  private update(
    d: ClaimedDelivery,
    status: DeliveryUpdate['status'],
    runAt: Date | null,
    statusCode: number | null,
    error: string | null,
    durationMs: number,
  ): DeliveryUpdate {
    return {
      id: d.id,
      attempts: d.attempts,
      status,
      runAt,
      statusCode,
      error,
      entry: {
        attempt: d.attempts,
        at: new Date().toISOString(),
        status_code: statusCode,
        duration_ms: durationMs,
        error,
      },
    };
  }

  /** The endpoint's signing secrets, decrypted once per batch: current first, then the previous one during its overlap. */
  private secretsOf(endpoint: EndpointSecrets, cache: Map<string, string[]>): string[] {
    let list = cache.get(endpoint.id);
    if (!list) {
      const keys = secretsKeys(
        this.config.webhooks.secretKey,
        this.config.auth.jwtSecret,
        this.config.auth.jwtPreviousSecrets,
      );
      if (!keys.length)
        throw new Error(
          'webhook secrets cannot be decrypted: set WEBHOOK_SECRET_KEY (or JWT_SECRET) as when the endpoint was created',
        );
      list = [decryptWithAny(keys, endpoint.id, endpoint.secretEnc)];
      if (endpoint.previousSecretEnc) list.push(decryptWithAny(keys, endpoint.id, endpoint.previousSecretEnc));
      cache.set(endpoint.id, list);
    }
    return list;
  }
}

import { NotifydError } from './errors.js';
import { enc, Transport, type TransportOptions, waitParam } from './transport.js';
import type { QueryOf, RequestOf, ResponseOf, Schemas } from './types.js';

export type NotifydOptions = TransportOptions;

/** Job statuses after which nothing more happens to a job. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['sent', 'failed', 'cancelled', 'bounced']);

/** A fresh idempotency key for a send the caller gave none: a retry of the same call never notifies twice. */
export function newIdempotencyKey(): string {
  return `ntfy_${globalThis.crypto.randomUUID()}`;
}

/** Milliseconds from notifyd's `wait` ("10s", "500ms") to stretch the per-attempt timeout. */
function waitMs(wait: string | undefined): number {
  const match = wait ? /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(wait.trim()) : null;
  if (!match) return 0;
  return Number(match[1]) * (match[2] === 'ms' ? 1 : match[2] === 'm' ? 60_000 : 1000);
}

/**
 * notifyd from a server (Node 20.3+, Deno, Bun) or a browser: one object per API key.
 *
 *   const notifyd = new Notifyd({ baseUrl: 'https://notify.example.com', apiKey: process.env.NOTIFYD_API_KEY! });
 *   const { job_ids } = await notifyd.send({ subscriber_id: 'user_123', channels: ['email'], template: 'welcome' });
 *   const job = await notifyd.jobs.wait(job_ids[0]);
 */
export class Notifyd {
  readonly http: Transport;

  constructor(options: NotifydOptions) {
    this.http = new Transport(options);
  }

  /**
   * POST /v1/send. Without an `idempotency_key` one is generated, so the call is retried safely
   * after a network error or a 5xx: the server returns the first call's jobs.
   */
  send(request: RequestOf<'sendNotification'>, options: { signal?: AbortSignal } = {}): Promise<ResponseOf<'sendNotification'>> {
    const body = { ...request, idempotency_key: request.idempotency_key ?? newIdempotencyKey() };
    return this.http.request('POST', '/v1/send', { body, idempotent: true, extraTimeoutMs: waitMs(request.wait), signal: options.signal });
  }

  /** POST /v1/schedule: a send at `scheduled_at`, with the same idempotency key rule. */
  schedule(request: RequestOf<'scheduleNotification'>, options: { signal?: AbortSignal } = {}): Promise<ResponseOf<'scheduleNotification'>> {
    const body = { ...request, idempotency_key: request.idempotency_key ?? newIdempotencyKey() };
    return this.http.request('POST', '/v1/schedule', { body, idempotent: true, signal: options.signal });
  }

  /** POST /v1/batch: one message to up to 10 000 subscribers (or a segment), with the same idempotency key rule. */
  batch(request: RequestOf<'sendBatch'>, options: { signal?: AbortSignal } = {}): Promise<ResponseOf<'sendBatch'>> {
    const body = { ...request, idempotency_key: request.idempotency_key ?? newIdempotencyKey() };
    return this.http.request('POST', '/v1/batch', { body, idempotent: true, signal: options.signal });
  }

  readonly jobs = {
    /** GET /v1/jobs/{id}; with `wait` ("10s", at most 30s) the answer is held until the job is final. */
    get: (id: string, query: QueryOf<'getJob'> = {}): Promise<ResponseOf<'getJob'>> =>
      this.http.request('GET', `/v1/jobs/${enc(id)}`, { query, extraTimeoutMs: waitMs(query.wait) }),
    /**
     * The job once it is final (sent, failed, cancelled or bounced), polling with the server's
     * long wait. Rejects with NotifydError `wait_timeout` (carrying the last job) after `timeoutMs` (default 60 s).
     */
    wait: async (id: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ResponseOf<'getJob'>> => {
      const until = Date.now() + (options.timeoutMs ?? 60_000);
      for (;;) {
        const left = until - Date.now();
        const job = await this.http.request<ResponseOf<'getJob'>>('GET', `/v1/jobs/${enc(id)}`, {
          query: left > 0 ? { wait: waitParam(left) } : {},
          extraTimeoutMs: Math.min(Math.max(left, 0), 30_000),
          signal: options.signal,
        });
        if (FINAL_STATUSES.has(job.status)) return job;
        if (Date.now() >= until) throw new NotifydError(0, 'wait_timeout', `job ${id} is still ${job.status} after ${options.timeoutMs ?? 60_000} ms`, null, { job });
      }
    },
    /** DELETE /v1/jobs/{id}: cancels a job that has not been sent. */
    cancel: (id: string): Promise<ResponseOf<'cancelJob'>> => this.http.request('DELETE', `/v1/jobs/${enc(id)}`),
    /** POST /v1/jobs/{id}/retry: queues a failed job again. */
    retry: (id: string): Promise<ResponseOf<'retryJob'>> => this.http.request('POST', `/v1/jobs/${enc(id)}/retry`),
  };

  readonly subscribers = {
    /** POST /v1/subscribers: create or update (absent fields are kept). */
    upsert: (subscriber: RequestOf<'upsertSubscriber'>): Promise<ResponseOf<'upsertSubscriber'>> =>
      this.http.request('POST', '/v1/subscribers', { body: subscriber, idempotent: true }),
    /** POST /v1/subscribers/bulk: up to 1 000 at once. */
    bulkUpsert: (request: RequestOf<'bulkUpsertSubscribers'>): Promise<ResponseOf<'bulkUpsertSubscribers'>> =>
      this.http.request('POST', '/v1/subscribers/bulk', { body: request, idempotent: true }),
    get: (id: string): Promise<ResponseOf<'getSubscriber'>> => this.http.request('GET', `/v1/subscribers/${enc(id)}`),
    list: (query: QueryOf<'listSubscribers'> = {}): Promise<ResponseOf<'listSubscribers'>> => this.http.request('GET', '/v1/subscribers', { query }),
    delete: (id: string): Promise<ResponseOf<'deleteSubscriber'>> => this.http.request('DELETE', `/v1/subscribers/${enc(id)}`),
    /** POST /v1/auth/subscriber-token: a short-lived token for the subscriber's browser (the inbox). */
    createToken: (request: RequestOf<'createSubscriberToken'>): Promise<ResponseOf<'createSubscriberToken'>> =>
      this.http.request('POST', '/v1/auth/subscriber-token', { body: request }),
    revokeTokens: (id: string): Promise<ResponseOf<'revokeSubscriberTokens'>> => this.http.request('POST', `/v1/subscribers/${enc(id)}/tokens/revoke`, { idempotent: true }),
  };

  readonly preferences = {
    get: (subscriberId: string): Promise<ResponseOf<'getSubscriberPreferences'>> => this.http.request('GET', `/v1/subscribers/${enc(subscriberId)}/preferences`),
    set: (subscriberId: string, request: RequestOf<'putSubscriberPreferences'>): Promise<ResponseOf<'putSubscriberPreferences'>> =>
      this.http.request('PUT', `/v1/subscribers/${enc(subscriberId)}/preferences`, { body: request }),
  };

  readonly templates = {
    upsert: (template: RequestOf<'upsertTemplate'>): Promise<ResponseOf<'upsertTemplate'>> => this.http.request('POST', '/v1/templates', { body: template, idempotent: true }),
    get: (id: string): Promise<ResponseOf<'getTemplate'>> => this.http.request('GET', `/v1/templates/${enc(id)}`),
    list: (query: QueryOf<'listTemplates'> = {}): Promise<ResponseOf<'listTemplates'>> => this.http.request('GET', '/v1/templates', { query }),
    delete: (id: string): Promise<ResponseOf<'deleteTemplate'>> => this.http.request('DELETE', `/v1/templates/${enc(id)}`),
    preview: (id: string, request: RequestOf<'previewTemplate'>): Promise<ResponseOf<'previewTemplate'>> =>
      this.http.request('POST', `/v1/templates/${enc(id)}/preview`, { body: request, idempotent: true }),
  };

  readonly suppressions = {
    list: (query: QueryOf<'listSuppressions'> = {}): Promise<ResponseOf<'listSuppressions'>> => this.http.request('GET', '/v1/suppressions', { query }),
    create: (request: RequestOf<'createSuppression'>): Promise<ResponseOf<'createSuppression'>> => this.http.request('POST', '/v1/suppressions', { body: request }),
    get: (id: string): Promise<ResponseOf<'getSuppression'>> => this.http.request('GET', `/v1/suppressions/${enc(id)}`),
    release: (id: string): Promise<ResponseOf<'releaseSuppression'>> => this.http.request('DELETE', `/v1/suppressions/${enc(id)}`),
  };

  readonly webhooks = {
    /** POST /v1/webhooks: the answer's `secret` is shown this once; keep it for `verifyWebhook`. */
    create: (request: RequestOf<'createWebhook'>): Promise<ResponseOf<'createWebhook'>> => this.http.request('POST', '/v1/webhooks', { body: request }),
    list: (): Promise<ResponseOf<'listWebhooks'>> => this.http.request('GET', '/v1/webhooks'),
    get: (id: string): Promise<ResponseOf<'getWebhook'>> => this.http.request('GET', `/v1/webhooks/${enc(id)}`),
    update: (id: string, request: RequestOf<'updateWebhook'>): Promise<ResponseOf<'updateWebhook'>> =>
      this.http.request('PATCH', `/v1/webhooks/${enc(id)}`, { body: request, idempotent: true }),
    delete: (id: string): Promise<ResponseOf<'deleteWebhook'>> => this.http.request('DELETE', `/v1/webhooks/${enc(id)}`),
    rotateSecret: (id: string, request: RequestOf<'rotateWebhookSecret'> = {}): Promise<ResponseOf<'rotateWebhookSecret'>> =>
      this.http.request('POST', `/v1/webhooks/${enc(id)}/rotate-secret`, { body: request }),
    deliveries: (id: string, query: QueryOf<'listWebhookDeliveries'> = {}): Promise<ResponseOf<'listWebhookDeliveries'>> =>
      this.http.request('GET', `/v1/webhooks/${enc(id)}/deliveries`, { query }),
    delivery: (id: string, deliveryId: string): Promise<ResponseOf<'getWebhookDelivery'>> => this.http.request('GET', `/v1/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}`),
    redeliver: (id: string, deliveryId: string): Promise<ResponseOf<'redeliverWebhook'>> =>
      this.http.request('POST', `/v1/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}/redeliver`),
  };

  readonly workflows = {
    upsert: (workflow: RequestOf<'upsertWorkflow'>): Promise<ResponseOf<'upsertWorkflow'>> => this.http.request('POST', '/v1/workflows', { body: workflow, idempotent: true }),
    list: (): Promise<ResponseOf<'listWorkflows'>> => this.http.request('GET', '/v1/workflows'),
    get: (id: string): Promise<ResponseOf<'getWorkflow'>> => this.http.request('GET', `/v1/workflows/${enc(id)}`),
    delete: (id: string): Promise<ResponseOf<'deleteWorkflow'>> => this.http.request('DELETE', `/v1/workflows/${enc(id)}`),
    /** POST /v1/workflows/trigger, with a generated idempotency key when none is given. */
    trigger: (request: RequestOf<'triggerWorkflow'>): Promise<ResponseOf<'triggerWorkflow'>> =>
      this.http.request('POST', '/v1/workflows/trigger', { body: { ...request, idempotency_key: request.idempotency_key ?? newIdempotencyKey() }, idempotent: true }),
    runs: (query: QueryOf<'listWorkflowRuns'> = {}): Promise<ResponseOf<'listWorkflowRuns'>> => this.http.request('GET', '/v1/workflows/runs', { query }),
    run: (id: string): Promise<ResponseOf<'getWorkflowRun'>> => this.http.request('GET', `/v1/workflows/runs/${enc(id)}`),
    cancelRun: (id: string): Promise<ResponseOf<'cancelWorkflowRun'>> => this.http.request('DELETE', `/v1/workflows/runs/${enc(id)}`),
  };
}

export type { Schemas };

import type { DeliveryDto, WebhookDto } from './dto/webhook.dto.js';
import { type DeliveryRow, type EndpointRow, webhookId } from './webhook.types.js';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function presentWebhook(e: EndpointRow): WebhookDto {
  return {
    id: e.id,
    project_id: e.projectId,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    secret_hint: e.secretHint,
    signature_format: e.signatureFormat,
    previous_secret_expires_at:
      e.previousSecretExpiresAt && new Date(e.previousSecretExpiresAt) > new Date()
        ? iso(e.previousSecretExpiresAt)
        : null,
    disabled_at: iso(e.disabledAt),
    disabled_reason: e.disabledReason,
    last_success_at: iso(e.lastSuccessAt),
    last_failure_at: iso(e.lastFailureAt),
    created_at: iso(e.createdAt)!,
    updated_at: iso(e.updatedAt)!,
  };
}

export function presentDelivery(d: DeliveryRow): DeliveryDto {
  return {
    id: d.id,
    webhook_id: webhookId(d.id),
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    max_attempts: d.maxAttempts,
    next_attempt_at: d.status === 'pending' || d.status === 'retry' ? iso(d.runAt) : null,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    attempt_log: d.attemptLog,
    payload: d.payload,
    created_at: iso(d.createdAt)!,
    finished_at: iso(d.finishedAt),
  };
}

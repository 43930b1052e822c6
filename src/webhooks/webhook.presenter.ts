import { isoOrNull } from '../common/http/iso-timestamp.js';
import type { CreateWebhookResponseDto, DeliveryDto, WebhookDto } from './dto/webhook.dto.js';
import { type DeliveryRow, type EndpointRow, webhookId } from './webhook.types.js';

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
        ? isoOrNull(e.previousSecretExpiresAt)
        : null,
    disabled_at: isoOrNull(e.disabledAt),
    disabled_reason: e.disabledReason,
    last_success_at: isoOrNull(e.lastSuccessAt),
    last_failure_at: isoOrNull(e.lastFailureAt),
    consecutive_failures: e.consecutiveFailures,
    paused_until: isoOrNull(e.pausedUntil),
    created_at: isoOrNull(e.createdAt)!,
    updated_at: isoOrNull(e.updatedAt)!,
  };
}

/** The answer to a registration: the only time the signing secret is shown, with `warning` telling where to go next. */
export function presentCreatedWebhook(
  created: { endpoint: EndpointRow; secret: string },
  warning: string,
): CreateWebhookResponseDto {
  const { endpoint, secret } = created;
  return { success: true, id: endpoint.id, secret, warning, webhook: presentWebhook(endpoint) };
}

export function presentDelivery(d: DeliveryRow): DeliveryDto {
  return {
    id: d.id,
    webhook_id: webhookId(d.id),
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    max_attempts: d.maxAttempts,
    next_attempt_at: d.status === 'pending' || d.status === 'retry' ? isoOrNull(d.runAt) : null,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    attempt_log: d.attemptLog,
    payload: d.payload,
    created_at: isoOrNull(d.createdAt)!,
    finished_at: isoOrNull(d.finishedAt),
  };
}

import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { WebhookEndpointsService } from '../../webhooks/webhook-endpoints.service.js';
import { presentDelivery, presentWebhook } from '../../webhooks/webhook.presenter.js';
import type { DeliveryRow, EndpointRow } from '../../webhooks/webhook.types.js';
import { defineTool, READ_ONLY, SENDS_MESSAGE } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { attemptFields, endpointIdArg, pageArgs, projectIdArg } from './schemas.js';

export const webhookView = z.object({
  id: z.string(),
  project_id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  secret_hint: z.string().nullable(),
  signature_format: z
    .enum(['standard', 'notifyd-0x'])
    .describe('How deliveries are signed: Standard Webhooks, or also the notifyd 0.x way (imported endpoints)'),
  disabled_at: z.string().nullable(),
  disabled_reason: z.string().nullable(),
  last_success_at: z.string().nullable(),
  last_failure_at: z.string().nullable(),
  consecutive_failures: z.number().describe('Failed attempts in a row; at 5 the endpoint is paused'),
  paused_until: z
    .string()
    .nullable()
    .describe('While set and in the future, deliveries wait (attempts not spent); one probe goes out when it ends'),
  created_at: z.string(),
});

/** An endpoint as the tools show it: presentWebhook without the old secret's expiry and updated_at. */
export function presentWebhookView(endpoint: EndpointRow): z.input<typeof webhookView> {
  const { previous_secret_expires_at: _hidden, updated_at: _updated, ...view } = presentWebhook(endpoint);
  return view;
}

const deliveryView = z.object({
  id: z.string(),
  webhook_id: z.string(),
  event_type: z.string(),
  status: z.string(),
  ...attemptFields,
  next_attempt_at: z.string().nullable(),
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

const deliveryDetail = deliveryView.extend({
  payload: z.record(z.string(), z.unknown()).describe('The event as the endpoint receives it'),
  attempt_log: z.array(
    z.object({
      attempt: z.number(),
      at: z.string(),
      status_code: z.number().nullable(),
      duration_ms: z.number(),
      error: z.string().nullable(),
    }),
  ),
});

/** A delivery as lists show it: presentDelivery without the payload and the attempt log. */
function presentDeliveryView(delivery: DeliveryRow): z.input<typeof deliveryView> {
  const { attempt_log: _log, payload: _payload, ...view } = presentDelivery(delivery);
  return view;
}

/** The columns of get_webhook_delivery's text table: one row per attempt. */
const ATTEMPT_COLUMNS = ['attempt', 'at', 'status_code', 'duration_ms', 'error'] as const;

const DELIVERY_STATUSES = ['pending', 'processing', 'retry', 'delivered', 'failed', 'cancelled'] as const;

/** Outbound webhooks: list_webhooks, webhook_deliveries, get_webhook_delivery, redeliver_webhook. */
@Injectable()
export class WebhooksTools implements McpToolProvider {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  tools() {
    return [
      defineTool({
        name: 'list_webhooks',
        title: 'List webhook endpoints',
        description:
          'Outbound webhook endpoints (one project, or every project for an operator) with their events, whether they are enabled, why one was disabled ' +
          '(too many failures), whether it is paused after failures in a row (paused_until) and the last success and failure. Follow up with webhook_deliveries.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ project_id: projectIdArg.optional(), enabled: z.boolean().optional() }),
        output: z.object({ webhooks: z.array(webhookView), count: z.number() }),
        run: async ({ project_id: projectId, enabled }, context) => {
          const webhooks = (await this.endpoints.list(context.project(projectId), enabled)).map(presentWebhookView);
          return {
            structured: { webhooks, count: webhooks.length },
            text: webhooks.length
              ? webhooks
                  .map(
                    (w) =>
                      `${w.id} ${w.url} (${w.enabled ? 'enabled' : `disabled: ${w.disabled_reason ?? 'by hand'}`})` +
                      (w.paused_until && Date.parse(w.paused_until) > Date.now()
                        ? `, paused until ${w.paused_until} after ${w.consecutive_failures} failures`
                        : ''),
                  )
                  .join('\n')
              : 'No webhook endpoints.',
          };
        },
      }),
      defineTool({
        name: 'webhook_deliveries',
        title: 'Webhook delivery log',
        description:
          'One endpoint’s delivery log, newest first: event, status, attempts, the last HTTP status or error, the next attempt. Filter by status (failed to investigate).',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          webhook_id: endpointIdArg,
          status: z.enum(DELIVERY_STATUSES).optional(),
          ...pageArgs,
        }),
        output: z.object({ deliveries: z.array(deliveryView), next_cursor: z.string().nullable() }),
        run: async (args, context) => {
          const projectId = await this.owner(args.webhook_id, context.project(args.project_id));
          const { items, nextCursor } = await this.endpoints.deliveries(
            args.webhook_id,
            projectId,
            args.limit,
            args.cursor,
            args.status,
          );
          const deliveries = items.map(presentDeliveryView);
          return {
            structured: { deliveries, next_cursor: nextCursor },
            text: deliveries.length
              ? deliveries
                  .map(
                    (d) =>
                      `${d.id} ${d.event_type} ${d.status} after ${d.attempts} attempt(s)${d.last_error ? `: ${d.last_error}` : ''}`,
                  )
                  .join('\n')
              : 'No deliveries.',
          };
        },
      }),
      defineTool({
        name: 'get_webhook_delivery',
        title: 'One webhook delivery',
        description:
          'One delivery of an endpoint with the payload it carries and every attempt (when, the HTTP status or error, how long it took), as GET /v1/webhooks/:id/deliveries/:delivery_id. ' +
          'Read it to see why a receiver refused a delivery; then fix the receiver and redeliver_webhook.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          webhook_id: endpointIdArg,
          delivery_id: z.string().min(1).max(64).describe('Delivery id from webhook_deliveries'),
        }),
        output: deliveryDetail,
        run: async (args, context) => {
          const delivery = presentDelivery(
            await this.endpoints.delivery(args.webhook_id, args.delivery_id, context.project(args.project_id)),
          );
          return {
            structured: delivery,
            text: `Delivery ${delivery.id} (${delivery.event_type}): ${delivery.status} after ${delivery.attempts} of ${delivery.max_attempts} attempt(s)${delivery.next_attempt_at ? `, next at ${delivery.next_attempt_at}` : ''}. Payload: ${JSON.stringify(delivery.payload).slice(0, 2000)}`,
            table: delivery.attempt_log.length ? { rows: delivery.attempt_log, columns: ATTEMPT_COLUMNS } : undefined,
          };
        },
      }),
      defineTool({
        name: 'redeliver_webhook',
        title: 'Redeliver a webhook',
        description:
          'Queue a failed or cancelled delivery again (same webhook-id, so the receiver can de-duplicate; fresh attempts). Fix the receiving endpoint first.',
        annotations: SENDS_MESSAGE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          webhook_id: z.string().min(1).max(64),
          delivery_id: z.string().min(1).max(64),
        }),
        output: deliveryView,
        run: async (args, context) => {
          const projectId = await this.owner(args.webhook_id, context.project(args.project_id));
          const view = presentDeliveryView(
            await this.endpoints.redeliver(args.webhook_id, args.delivery_id, projectId, context.actor),
          );
          return { structured: view, text: `Delivery ${view.id} is ${view.status} again.` };
        },
      }),
    ];
  }

  /** The endpoint's project: the caller's own, or (operator) whichever owns it. 404 otherwise. */
  private async owner(webhookId: string, projectId: string | null): Promise<string> {
    return (await this.endpoints.get(webhookId, projectId)).projectId;
  }
}

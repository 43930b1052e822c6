import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { CreateWebhookDto, RotateWebhookSecretDto, UpdateWebhookDto } from '../../webhooks/dto/webhook.dto.js';
import { WebhookEndpointsService } from '../../webhooks/webhook-endpoints.service.js';
import { presentWebhook } from '../../webhooks/webhook.presenter.js';
import { CREATES, defineTool, IDEMPOTENT_WRITE, ROTATES_CREDENTIAL } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { deleteTool } from './delete-tool.js';
import { endpointIdArg, projectIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';
import { presentWebhookView, webhookView } from './webhooks.tools.js';

/**
 * Registering, changing, re-keying and removing outbound webhook endpoints (POST, PATCH and
 * DELETE /v1/webhooks, POST …/rotate-secret, and the admin routes for operators), through WebhookEndpointsService: the same URL checks (https,
 * no private address), events and secret rules.
 */
@Injectable()
export class WebhookEndpointsTools implements McpToolProvider {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  tools() {
    return [
      defineTool({
        name: 'create_webhook',
        title: 'Register a webhook endpoint',
        description:
          'Register an endpoint that receives a project’s events (job.sent, job.failed… or * for all) as signed POSTs (Standard Webhooks). ' +
          'The signing secret is generated (or give yours, whsec_…) and shown once in this result, as POST /v1/webhooks shows it: hand it to the receiver, it cannot be read again. ' +
          'Each call registers another endpoint.',
        annotations: CREATES,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          url: z.string().min(8).max(2048).describe('https URL of the receiver'),
          events: z.array(z.string().min(1).max(64)).min(1).max(20).describe('Event types, or ["*"] for all'),
          description: z.string().max(500).optional(),
          enabled: z.boolean().optional(),
          secret: z.string().max(200).optional().describe('whsec_… of your own; left out, one is generated'),
          signature_format: z.enum(['standard', 'notifyd-0x']).optional(),
        }),
        output: z.object({ id: z.string(), secret: z.string().describe('Shown once'), webhook: webhookView }),
        run: async ({ project_id: projectId, ...body }, context) => {
          const project = await context.scopedProject(projectId);
          const { endpoint, secret } = await this.endpoints.create(
            project.id,
            await validateDto(CreateWebhookDto, body),
            context.actor,
          );
          const webhook = presentWebhookView(endpoint);
          return {
            structured: { id: endpoint.id, secret, webhook },
            text: `Endpoint ${endpoint.id} of ${project.id} registered for ${webhook.events.join(', ')}. Its signing secret, shown this once: ${secret}`,
          };
        },
      }),
      defineTool({
        name: 'update_webhook',
        title: 'Change a webhook endpoint',
        description:
          'Change an endpoint’s URL, events or description, or disable it (enabled false: deliveries wait) or re-enable it (the fix for an endpoint disabled after too many failures, once the receiver works). ' +
          'Setting the same values again changes nothing.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: endpointIdArg,
          url: z.string().min(8).max(2048).optional(),
          events: z.array(z.string().min(1).max(64)).min(1).max(20).optional(),
          description: z.string().max(500).nullable().optional(),
          enabled: z.boolean().optional(),
        }),
        output: webhookView,
        run: async ({ project_id: projectId, id, ...body }, context) => {
          const webhook = presentWebhookView(
            await this.endpoints.update(
              id,
              context.project(projectId),
              await validateDto(UpdateWebhookDto, body),
              context.actor,
            ),
          );
          return {
            structured: webhook,
            text: `Endpoint ${webhook.id} of ${webhook.project_id}: ${webhook.enabled ? 'enabled' : 'disabled'}, ${webhook.url}, events ${webhook.events.join(', ')}.`,
          };
        },
      }),
      defineTool({
        name: 'rotate_webhook_secret',
        title: 'Rotate a webhook endpoint’s signing secret',
        description:
          'Issue a new signing secret for an endpoint, shown once in this result as POST /v1/webhooks/:id/rotate-secret shows it: hand it to the receiver. ' +
          'The old secret keeps signing beside it for overlap_seconds (default 86400, 0 stops it at once, at most 7 days), so the receiver can switch without losing deliveries. ' +
          'Each call issues another secret, and rotating again ends the overlap of the previous one.',
        annotations: ROTATES_CREDENTIAL,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: endpointIdArg,
          overlap_seconds: z
            .number()
            .int()
            .min(0)
            .max(604_800)
            .optional()
            .describe('How long the old secret keeps signing (default 86400)'),
        }),
        output: z.object({
          id: z.string(),
          secret: z.string().describe('Shown once'),
          previous_secret_valid_until: z.string().nullable(),
          webhook: webhookView,
        }),
        run: async ({ project_id: projectId, id, ...body }, context) => {
          const dto = await validateDto(RotateWebhookSecretDto, body);
          // The service rotates within one project: an operator's call acts on the endpoint's own.
          const owner = (await this.endpoints.get(id, context.project(projectId))).projectId;
          const { endpoint, secret } = await this.endpoints.rotateSecret(id, owner, dto.overlap_seconds, context.actor);
          const validUntil = presentWebhook(endpoint).previous_secret_expires_at;
          return {
            structured: {
              id: endpoint.id,
              secret,
              previous_secret_valid_until: validUntil,
              webhook: presentWebhookView(endpoint),
            },
            text: `Endpoint ${endpoint.id} of ${owner} signs with a new secret, shown this once: ${secret}\n${validUntil ? `The previous secret also signs until ${validUntil}.` : 'The previous secret no longer signs.'}`,
          };
        },
      }),
      deleteTool({
        name: 'delete_webhook',
        title: 'Delete a webhook endpoint',
        description:
          'Delete an endpoint and its delivery log (deliveries still pending are dropped). To stop deliveries for a while, disable it instead.',
        id: endpointIdArg,
        remove: async (id, projectId, context) => {
          // A project key deletes only its own endpoints; an operator any (or one of the project it names).
          await this.endpoints.delete(id, context.project(projectId), context.actor);
          return `Endpoint ${id} and its delivery log deleted.`;
        },
      }),
    ];
  }
}

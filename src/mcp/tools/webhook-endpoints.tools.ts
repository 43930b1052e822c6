import { Injectable, type OnModuleInit } from '@nestjs/common';
import { z } from 'zod';
import { ProjectsService } from '../../projects/projects.service.js';
import { CreateWebhookDto, UpdateWebhookDto } from '../../webhooks/dto/webhook.dto.js';
import type { EndpointRow } from '../../webhooks/webhook.types.js';
import { WebhookEndpointsService } from '../../webhooks/webhook-endpoints.service.js';
import { presentWebhook } from '../../webhooks/webhook.presenter.js';
import { McpToolRegistry } from '../mcp-tool-registry.js';
import { CREATES, defineTool, DESTRUCTIVE_WRITE, IDEMPOTENT_WRITE } from '../mcp-tool.js';
import { scopedProject } from './project-scope.js';
import { projectIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';
import { webhookView } from './webhooks.tools.js';

function view(endpoint: EndpointRow): z.input<typeof webhookView> {
  const { previous_secret_expires_at: _hidden, updated_at: _updated, ...rest } = presentWebhook(endpoint);
  return rest;
}

/**
 * Registering and removing outbound webhook endpoints (POST, PATCH and DELETE /v1/webhooks, and the
 * admin routes for operators), through WebhookEndpointsService: the same URL checks (https,
 * no private address), events and secret rules.
 */
@Injectable()
export class WebhookEndpointsTools implements OnModuleInit {
  constructor(
    private readonly registry: McpToolRegistry,
    private readonly projects: ProjectsService,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  onModuleInit(): void {
    this.registry.register(
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
          const project = await scopedProject(this.projects, context, projectId);
          const { endpoint, secret } = await this.endpoints.create(project.id, await validateDto(CreateWebhookDto, body), context.actor);
          const webhook = view(endpoint);
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
          id: z.string().min(1).max(64).describe('Endpoint id from list_webhooks'),
          url: z.string().min(8).max(2048).optional(),
          events: z.array(z.string().min(1).max(64)).min(1).max(20).optional(),
          description: z.string().max(500).nullable().optional(),
          enabled: z.boolean().optional(),
        }),
        output: webhookView,
        run: async ({ project_id: projectId, id, ...body }, context) => {
          const webhook = view(await this.endpoints.update(id, context.project(projectId), await validateDto(UpdateWebhookDto, body), context.actor));
          return { structured: webhook, text: `Endpoint ${webhook.id} of ${webhook.project_id}: ${webhook.enabled ? 'enabled' : 'disabled'}, ${webhook.url}, events ${webhook.events.join(', ')}.` };
        },
      }),
      defineTool({
        name: 'delete_webhook',
        title: 'Delete a webhook endpoint',
        description: 'Delete an endpoint and its delivery log (deliveries still pending are dropped). To stop deliveries for a while, disable it instead.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'project',
        input: z.strictObject({ project_id: projectIdArg.optional(), id: z.string().min(1).max(64).describe('Endpoint id from list_webhooks') }),
        output: z.object({ id: z.string(), deleted: z.boolean() }),
        run: async ({ project_id: projectId, id }, context) => {
          // A project key deletes only its own endpoints; an operator any (or one of the project it names).
          await this.endpoints.delete(id, context.project(projectId), context.actor);
          return { structured: { id, deleted: true }, text: `Endpoint ${id} and its delivery log deleted.` };
        },
      }),
    );
  }
}

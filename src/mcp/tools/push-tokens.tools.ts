import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { maskOpaque } from '../../common/pii/mask.js';
import { RegisterPushTokenDto } from '../../push-tokens/dto/push-token.dto.js';
import { presentPushToken } from '../../push-tokens/push-token.presenter.js';
import type { PushTokenRow } from '../../domain/push-token.types.js';
import { PushTokensService } from '../../push-tokens/push-tokens.service.js';
import { defineTool, DESTRUCTIVE_WRITE, IDEMPOTENT_WRITE, type McpToolContext, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { projectIdArg, subscriberIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';

const tokenView = z.object({
  id: z.string(),
  token: z.string().describe('Masked for operator keys: a device token is an address'),
  platform: z.string(),
  device_name: z.string().nullable(),
  endpoint: z.string().nullable().describe('Web push endpoint; masked for operator keys'),
  expiration_time: z.number().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
});
const TOKEN_COLUMNS = ['id', 'platform', 'device_name', 'token', 'last_used_at'];

/** A project key reads its own devices; operators see tokens and endpoints masked, as recipients. */
function present(row: PushTokenRow, context: McpToolContext): z.input<typeof tokenView> {
  const view = presentPushToken(row);
  if (context.caller.role === 'project') return view;
  return { ...view, token: maskOpaque(view.token), endpoint: view.endpoint && maskOpaque(view.endpoint) };
}

/** Subscribers' push devices (/v1/push-tokens): list_push_tokens, register_push_token, delete_push_token. */
@Injectable()
export class PushTokensTools implements McpToolProvider {
  constructor(private readonly tokens: PushTokensService) {}

  tools() {
    return [
      defineTool({
        name: 'list_push_tokens',
        title: 'List a subscriber’s push devices',
        description:
          'A subscriber’s push devices (web push subscriptions, FCM and APNs tokens), most recently used first. No device explains a push job skipped for want of an address.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ project_id: projectIdArg.optional(), subscriber_id: subscriberIdArg }),
        output: z.object({ subscriber_id: z.string(), tokens: z.array(tokenView) }),
        run: async ({ project_id: projectId, subscriber_id: subscriberId }, context) => {
          const project = await context.scopedProject(projectId);
          const tokens = (await this.tokens.list(project.id, subscriberId)).map((t) => present(t, context));
          return {
            structured: { subscriber_id: subscriberId, tokens },
            text: tokens.length
              ? `${subscriberId} has ${tokens.length} device(s).`
              : `${subscriberId} has no push device: register one with register_push_token.`,
            table: tokens.length ? { rows: tokens, columns: TOKEN_COLUMNS } : undefined,
          };
        },
      }),
      defineTool({
        name: 'register_push_token',
        title: 'Register a push device',
        description:
          'Register a subscriber’s device: an FCM or APNs token (token + platform), or a browser PushSubscription (endpoint + keys {p256dh, auth}, platform web). ' +
          'The subscriber must exist. The same token again refreshes it (created false).',
        annotations: IDEMPOTENT_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          subscriber_id: subscriberIdArg,
          token: z.string().min(1).max(4096).optional().describe('FCM or APNs device token'),
          platform: z.enum(['web', 'fcm', 'apns']).optional(),
          device_name: z.string().max(200).optional(),
          endpoint: z.string().max(2048).optional().describe('Web push endpoint (https)'),
          keys: z
            .strictObject({ p256dh: z.string().max(200), auth: z.string().max(100) })
            .optional()
            .describe('Web push keys, as PushSubscription.toJSON() gives them'),
          expiration_time: z
            .number()
            .int()
            .min(0)
            .max(8_640_000_000_000_000)
            .nullable()
            .optional()
            .describe('PushSubscription expirationTime (ms since epoch)'),
          user_agent: z.string().max(512).optional(),
        }),
        output: z.object({ id: z.string(), created: z.boolean(), token: tokenView }),
        run: async ({ project_id: projectId, ...body }, context) => {
          const project = await context.scopedProject(projectId);
          const { row, created } = await this.tokens.register(
            project.id,
            await validateDto(RegisterPushTokenDto, body),
          );
          const token = present(row, context);
          return {
            structured: { id: row.id, created, token },
            text: `Device ${row.id} of ${body.subscriber_id} ${created ? 'registered' : 'refreshed'} (${row.platform}).`,
          };
        },
      }),
      defineTool({
        name: 'delete_push_token',
        title: 'Delete a push device',
        description:
          'Delete a device by id (from list_push_tokens): no push goes to it any more. Succeeds also when it was already gone.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: z.uuid({ message: 'must be a device id (a UUID from list_push_tokens)' }),
        }),
        output: z.object({ id: z.string(), success: z.boolean() }),
        run: async ({ project_id: projectId, id }, context) => {
          const project = await context.scopedProject(projectId);
          await this.tokens.delete(project.id, id);
          return { structured: { id, success: true }, text: `Device ${id} of ${project.id} is gone.` };
        },
      }),
    ];
  }
}

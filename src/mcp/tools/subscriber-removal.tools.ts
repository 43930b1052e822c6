import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { SubscribersService } from '../../subscribers/subscribers.service.js';
import { defineTool, DESTRUCTIVE_WRITE } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { deleteTool } from './delete-tool.js';
import { projectIdArg, revokedResult, subscriberIdArg } from './schemas.js';

/**
 * delete_subscriber and revoke_subscriber_tokens: DELETE /v1/subscribers/:id and
 * POST /v1/subscribers/:id/tokens/revoke, through SubscribersService.
 */
@Injectable()
export class SubscriberRemovalTools implements McpToolProvider {
  constructor(private readonly subscribers: SubscribersService) {}

  tools() {
    return [
      deleteTool({
        name: 'delete_subscriber',
        title: 'Delete a subscriber',
        description:
          'Delete a subscriber with their inbox messages, preferences and push devices (an erasure request); their inbox tokens stop working, even for a subscriber created again with the same id. ' +
          'Jobs already queued are not touched.',
        id: subscriberIdArg,
        remove: async (id, projectId, context) => {
          await this.subscribers.delete(context.project(projectId, true), id);
          return `Subscriber ${id} and everything attached to them deleted.`;
        },
      }),
      defineTool({
        name: 'revoke_subscriber_tokens',
        title: 'Sign a subscriber out everywhere',
        description:
          'Revoke every inbox token issued to a subscriber so far (a leaked token): each stops working at once, and streams it opened end. Tokens minted afterwards work.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'project',
        input: z.strictObject({ project_id: projectIdArg.optional(), id: subscriberIdArg }),
        output: revokedResult,
        run: async ({ project_id: projectId, id }, context) => {
          await this.subscribers.revokeTokens(context.project(projectId, true), id);
          return { structured: { id, revoked: true }, text: `Every token issued to ${id} until now is revoked.` };
        },
      }),
    ];
  }
}

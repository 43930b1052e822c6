import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { presentChatBindingList } from '../../chat-bindings/chat-binding.presenter.js';
import { ChatBindingsService } from '../../chat-bindings/chat-bindings.service.js';
import { CHAT_BINDINGS_MAX } from '../../chat-bindings/dto/chat-binding.dto.js';
import { defineTool, DESTRUCTIVE_WRITE, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { projectIdArg } from './schemas.js';

const bindingView = z.object({ channel: z.string(), chat: z.string(), created_at: z.string() });

/**
 * Chat bindings (issue 18) for agents: the same service as /v1/admin/projects/:id/chat-bindings.
 * The instance's Telegram and Slack bots post only to chats bound to the sending project.
 */
@Injectable()
export class ChatBindingsTools implements McpToolProvider {
  constructor(private readonly bindings: ChatBindingsService) {}

  tools() {
    return [
      defineTool({
        name: 'list_chat_bindings',
        title: 'List a project’s chat bindings',
        description:
          'The Telegram chats and Slack channels the instance’s bots may reach for a project, and whether the instance enforces bindings (required). A send through the instance’s bot to any other chat is refused with chat_not_bound.',
        annotations: READ_ONLY,
        audience: 'operator',
        input: z.strictObject({ project_id: projectIdArg.describe('Project id (see list_projects)') }),
        output: z.object({ project_id: z.string(), required: z.boolean(), bindings: z.array(bindingView) }),
        run: async ({ project_id }) => {
          const view = presentChatBindingList(project_id, await this.bindings.list(project_id));
          const text = !view.required
            ? 'Bindings are not enforced on this instance (CHAT_BINDINGS_REQUIRED=false): every project reaches every chat.'
            : view.bindings.length
              ? view.bindings.map((b) => `${b.channel}: ${b.chat}`).join('\n')
              : `Project ${project_id} may reach no chat through the instance's bots.`;
          return { structured: view, text };
        },
      }),
      defineTool({
        name: 'set_chat_bindings',
        title: 'Set a project’s chat bindings',
        description:
          'Set every chat a project may reach on telegram or slack through the instance’s bot; replaces that channel’s list ([] unbinds them all). The fix for a chat_not_bound refusal. A project with its own bot (set_project_provider) needs none; Slack and Discord webhook URLs never do.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'operator',
        input: z.strictObject({
          project_id: projectIdArg.describe('Project id (see list_projects)'),
          channel: z.enum(['telegram', 'slack']).describe('telegram or slack'),
          chats: z
            .array(z.string().min(1).max(100))
            .max(CHAT_BINDINGS_MAX)
            .describe('Telegram chat ids or @channelusernames; Slack channel ids (C0123ABCD) or #channel-names'),
        }),
        output: z.object({ project_id: z.string(), channel: z.string(), chats: z.array(z.string()) }),
        run: async ({ project_id, channel, chats }, context) => {
          const bound = await this.bindings.put(project_id, channel, chats, context.actor);
          return {
            structured: { project_id, channel, chats: bound },
            text: `${project_id} may reach ${bound.length} ${channel} chat(s) through the instance's bot.`,
          };
        },
      }),
    ];
  }
}

import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { InboxMessagePathDto, InboxPathDto, ListInboxQueryDto, UpdateMessageDto } from '../../inbox/dto/inbox.dto.js';
import { presentMessage } from '../../inbox/inbox.presenter.js';
import { InboxService } from '../../inbox/inbox.service.js';
import { defineTool, IDEMPOTENT_WRITE, type McpToolContext, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { projectIdArg, subscriberIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';

const messageView = z.object({
  id: z.string(),
  title: z.string().nullable(),
  body: z.string().nullable().describe('null for operator keys: the content is the project’s to read'),
  icon: z.string(),
  url: z.string().nullable().describe('null for operator keys'),
  data: z.record(z.string(), z.unknown()).nullable().describe('null for operator keys'),
  topic: z.string().nullable(),
  is_read: z.boolean(),
  read_at: z.string().nullable(),
  is_seen: z.boolean(),
  seen_at: z.string().nullable(),
  is_archived: z.boolean(),
  archived_at: z.string().nullable(),
  is_todo: z.boolean(),
  snoozed_until: z.string().nullable(),
  created_at: z.string(),
});
const MESSAGE_COLUMNS = ['id', 'created_at', 'topic', 'title', 'is_read', 'is_seen', 'is_archived'];

/**
 * A project key reads its own messages; operator keys (the read-only one included) the title
 * only, as operators' job views show the subject and not the body (GET /v1/admin/jobs/:id,
 * job_timeline): body, url and data are the project's content, and no admin route shows them.
 */
function view(message: Parameters<typeof presentMessage>[0], context: McpToolContext): z.input<typeof messageView> {
  const shown = presentMessage(message);
  return context.caller.role === 'project' ? shown : { ...shown, body: null, url: null, data: null };
}

/** The bulk actions of POST /v1/inbox/:subscriber_id/{read,seen,archive}-all. */
const BULK_ACTIONS = { read: 'read', seen: 'seen', archive: 'archived' } as const;

/**
 * A subscriber's in-app inbox (/v1/inbox/:subscriber_id with the project key): list_inbox,
 * update_inbox_message, mark_inbox_all. Changes reach the subscriber's open streams as REST's do.
 */
@Injectable()
export class InboxTools implements McpToolProvider {
  constructor(private readonly inbox: InboxService) {}

  tools() {
    return [
      defineTool({
        name: 'list_inbox',
        title: 'List a subscriber’s inbox',
        description:
          'A page of a subscriber’s in-app inbox, newest first, with the unread and unseen counts (the badge). Filters: status (unread, read, unseen, todo), archived (true, false, all), topic, q (search). ' +
          'next_cursor pages on. Operator keys see each message’s title, not its body, url or data.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          subscriber_id: subscriberIdArg,
          status: z.enum(['unread', 'read', 'unseen', 'todo']).optional(),
          archived: z.enum(['true', 'false', 'all']).optional(),
          topic: z.string().min(1).max(64).optional(),
          q: z.string().min(1).max(200).optional(),
          limit: z.number().int().min(1).max(100).default(20),
          cursor: z.string().max(500).optional(),
        }),
        output: z.object({
          subscriber_id: z.string(),
          messages: z.array(messageView),
          next_cursor: z.string().nullable(),
          unread_count: z.number(),
          unseen_count: z.number(),
        }),
        run: async ({ project_id: projectId, subscriber_id: subscriberId, ...query }, context) => {
          const project = await context.scopedProject(projectId);
          const path = await validateDto(InboxPathDto, { subscriber_id: subscriberId });
          const [page, counts] = await Promise.all([
            this.inbox.list(project.id, path.subscriber_id, await validateDto(ListInboxQueryDto, query)),
            this.inbox.counts(project.id, path.subscriber_id),
          ]);
          const messages = page.items.map((m) => view(m, context));
          return {
            structured: {
              subscriber_id: subscriberId,
              messages,
              next_cursor: page.nextCursor,
              unread_count: counts.unread,
              unseen_count: counts.unseen,
            },
            text: `${subscriberId}: ${counts.unread} unread, ${counts.unseen} unseen; ${messages.length} message(s) on this page${page.nextCursor ? ', more with next_cursor' : ''}.`,
            table: messages.length ? { rows: messages, columns: MESSAGE_COLUMNS } : undefined,
          };
        },
      }),
      defineTool({
        name: 'update_inbox_message',
        title: 'Mark one inbox message',
        description:
          'Mark one message of a subscriber’s inbox read or unread, seen, archived or not, to-do, or snooze it until a time (null ends a snooze). Setting the same state again changes nothing.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          subscriber_id: subscriberIdArg,
          message_id: z.uuid({ message: 'must be a message id (a UUID from list_inbox)' }),
          read: z.boolean().optional(),
          seen: z.boolean().optional(),
          archived: z.boolean().optional(),
          is_todo: z.boolean().optional(),
          snoozed_until: z
            .string()
            .max(40)
            .nullable()
            .optional()
            .describe('RFC 3339 time in the future, or null to end a snooze'),
        }),
        output: messageView,
        run: async (
          { project_id: projectId, subscriber_id: subscriberId, message_id: messageId, ...change },
          context,
        ) => {
          const project = await context.scopedProject(projectId);
          const path = await validateDto(InboxMessagePathDto, { subscriber_id: subscriberId, message_id: messageId });
          const message = view(
            await this.inbox.update(
              project.id,
              path.subscriber_id,
              path.message_id,
              await validateDto(UpdateMessageDto, change),
            ),
            context,
          );
          return {
            structured: message,
            text: `Message ${message.id}: ${message.is_read ? 'read' : 'unread'}, ${message.is_seen ? 'seen' : 'unseen'}${message.is_archived ? ', archived' : ''}${message.snoozed_until ? `, snoozed until ${message.snoozed_until}` : ''}.`,
          };
        },
      }),
      defineTool({
        name: 'mark_inbox_all',
        title: 'Mark a whole inbox',
        description:
          'Mark every visible message of a subscriber’s inbox read, seen, or archived (optionally of one topic only). Doing it again changes nothing (updated 0).',
        annotations: IDEMPOTENT_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          subscriber_id: subscriberIdArg,
          action: z.enum(['read', 'seen', 'archive']).describe('read, seen or archive'),
          topic: z.string().min(1).max(64).optional(),
        }),
        output: z.object({ subscriber_id: z.string(), action: z.string(), updated: z.number() }),
        run: async ({ project_id: projectId, subscriber_id: subscriberId, action, topic }, context) => {
          const project = await context.scopedProject(projectId);
          const path = await validateDto(InboxPathDto, { subscriber_id: subscriberId });
          const updated = await this.inbox.bulk(project.id, path.subscriber_id, BULK_ACTIONS[action], topic);
          return {
            structured: { subscriber_id: subscriberId, action, updated },
            text: `${updated} message(s) of ${subscriberId} marked ${BULK_ACTIONS[action]}.`,
          };
        },
      }),
    ];
  }
}

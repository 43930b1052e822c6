import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { PutPreferencesDto } from '../../governance/preferences/dto/preference.dto.js';
import { presentPreference, PreferencesService } from '../../governance/preferences/preferences.service.js';
import { ListSubscribersQueryDto, UpsertSubscriberDto } from '../../subscribers/dto/subscriber.dto.js';
import type { SubscriberRow } from '../../subscribers/subscriber.types.js';
import { operatorAccess, presentSubscriberToOperator } from '../../subscribers/operator-view.js';
import { presentSubscriber, SubscribersService } from '../../subscribers/subscribers.service.js';
import { defineTool, IDEMPOTENT_WRITE, type McpToolContext, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { pageArgs, projectIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';

const subscriberView = z.object({
  id: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  locale: z.string().nullable(),
  timezone: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  withheld_data_keys: z
    .array(z.string())
    .optional()
    .describe('Read-only key only: data is withheld ({}) and these are the keys it holds'),
  created_at: z.string(),
  updated_at: z.string(),
});

/**
 * A project key reads its own subscribers; operators see addresses masked, as over the admin
 * REST routes, and the read-only key gets data withheld (it can hold webhook URLs and secrets).
 */
function present(s: SubscriberRow, context: McpToolContext): z.input<typeof subscriberView> {
  const { role } = context.caller;
  if (role === 'project') return presentSubscriber(s);
  return presentSubscriberToOperator(s, operatorAccess(role));
}

const preferenceView = z.object({
  channel: z.string(),
  topic: z.string().nullable(),
  workflow_id: z.string(),
  scope_kind: z.string(),
  enabled: z.boolean(),
  updated_at: z.string(),
});

/**
 * Subscribers (the people a project sends to) and their preferences: list_subscribers,
 * get_subscriber, upsert_subscriber, get_preferences, set_preferences.
 */
@Injectable()
export class SubscribersTools implements McpToolProvider {
  constructor(
    private readonly subscribers: SubscribersService,
    private readonly preferences: PreferencesService,
  ) {}

  tools() {
    return [
      defineTool({
        name: 'list_subscribers',
        title: 'List subscribers',
        description:
          'A project’s subscribers, by id, a page at a time (next_cursor for the next page); q searches id, email and names. Operators see addresses masked; the read-only key sees only the keys of data.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          q: z.string().min(1).max(200).optional(),
          ...pageArgs,
        }),
        output: z.object({ subscribers: z.array(subscriberView), next_cursor: z.string().nullable() }),
        run: async ({ project_id: projectId, ...query }, context) => {
          const page = await this.subscribers.list(
            context.project(projectId, true),
            await validateDto(ListSubscribersQueryDto, query),
          );
          const subscribers = page.items.map((s) => present(s, context));
          return {
            structured: { subscribers, next_cursor: page.nextCursor },
            text: `${subscribers.length} subscriber(s)${page.nextCursor ? '; more with next_cursor' : ''}: ${subscribers.map((s) => s.id).join(', ')}`,
          };
        },
      }),
      defineTool({
        name: 'get_subscriber',
        title: 'Get a subscriber',
        description:
          'One subscriber: addresses (masked for operators), names, locale, time zone and custom data (only its keys for the read-only key). A missing address explains a job skipped on that channel.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ project_id: projectIdArg.optional(), id: z.string().min(1).max(255) }),
        output: subscriberView,
        run: async ({ project_id: projectId, id }, context) => {
          const view = present(await this.subscribers.get(context.project(projectId, true), id), context);
          return {
            structured: view,
            text: `Subscriber ${view.id}: email ${view.email ?? 'none'}, phone ${view.phone ?? 'none'}, time zone ${view.timezone ?? 'unset'}.`,
          };
        },
      }),
      defineTool({
        name: 'upsert_subscriber',
        title: 'Create or update a subscriber',
        description:
          'Create a subscriber or update the fields given (null clears one); data is merged. Writing the same values again changes nothing.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: z.string().min(1).max(255),
          email: z.string().max(320).nullable().optional(),
          phone: z.string().max(32).nullable().optional().describe('E.164, e.g. +33612345678'),
          first_name: z.string().max(200).nullable().optional(),
          last_name: z.string().max(200).nullable().optional(),
          locale: z.string().max(35).nullable().optional(),
          timezone: z.string().max(64).nullable().optional().describe('IANA zone, e.g. Europe/Paris'),
          data: z.record(z.string(), z.unknown()).optional(),
        }),
        output: z.object({ id: z.string(), created: z.boolean() }),
        run: async ({ project_id: projectId, ...fields }, context) => {
          // Loaded, not only named: an operator naming no project gets a 404, not a failed insert.
          const project = await context.scopedProject(projectId);
          const created = await this.subscribers.upsert(project.id, await validateDto(UpsertSubscriberDto, fields));
          return {
            structured: { id: fields.id, created },
            text: `Subscriber ${fields.id} ${created ? 'created' : 'updated'}.`,
          };
        },
      }),
      defineTool({
        name: 'get_preferences',
        title: 'Get a subscriber’s preferences',
        description:
          'What a subscriber opted out of (or back into): per channel or all (*), for everything, a topic or a workflow/template. Explains jobs skipped as opted out.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ project_id: projectIdArg.optional(), subscriber_id: z.string().min(1).max(255) }),
        output: z.object({ subscriber_id: z.string(), preferences: z.array(preferenceView) }),
        run: async ({ project_id: projectId, subscriber_id: subscriberId }, context) => {
          const preferences = (await this.preferences.get(context.project(projectId, true), subscriberId)).map(
            presentPreference,
          );
          return {
            structured: { subscriber_id: subscriberId, preferences },
            text: preferences.length
              ? preferences
                  .map((p) => `${p.channel} ${p.scope_kind} ${p.topic ?? p.workflow_id}: ${p.enabled ? 'in' : 'out'}`)
                  .join('\n')
              : `${subscriberId} has no preferences: everything is sent.`,
          };
        },
      }),
      defineTool({
        name: 'set_preferences',
        title: 'Set a subscriber’s preferences',
        description:
          'Opt a subscriber out of (enabled false) or back into (true) a channel or all channels (*), for everything, one topic or one workflow/template. ' +
          'Each row is upserted by channel × scope, so setting the same choice again changes nothing. Transactional messages ignore opt-outs.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          subscriber_id: z.string().min(1).max(255),
          preferences: z
            .array(
              z.strictObject({
                channel: z.string().min(1).max(20).describe('A channel or * for all'),
                topic: z.string().max(64).optional(),
                workflow_id: z.string().max(128).optional(),
                enabled: z.boolean(),
              }),
            )
            .min(1)
            .max(100),
        }),
        output: z.object({ subscriber_id: z.string(), updated: z.number() }),
        run: async ({ project_id: projectId, subscriber_id: subscriberId, preferences }, context) => {
          const dto = await validateDto(PutPreferencesDto, { preferences });
          const updated = await this.preferences.put(context.project(projectId, true), subscriberId, dto.preferences);
          return {
            structured: { subscriber_id: subscriberId, updated },
            text: `${updated} preference(s) of ${subscriberId} written.`,
          };
        },
      }),
    ];
  }
}

import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { maskRecipient } from '../../common/pii/mask.js';
import { CHANNELS, type Channel } from '../../domain/channels.js';
import { SUPPRESSION_SCOPES, type SuppressionRow } from '../../governance/suppressions/suppression.types.js';
import { SuppressionsService } from '../../governance/suppressions/suppressions.service.js';
import { defineTool, DESTRUCTIVE_WRITE, type McpToolContext, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { projectIdArg } from './schemas.js';

const suppressionView = z.object({
  id: z.string(),
  project_id: z.string(),
  channel: z.string(),
  address: z.string().describe('Masked for operator keys'),
  scope: z.string(),
  reason: z.string(),
  source: z.string(),
  detail: z.string().nullable(),
  created_at: z.string(),
  released_at: z.string().nullable(),
});

function present(s: SuppressionRow, context: McpToolContext): z.input<typeof suppressionView> {
  return {
    id: s.id,
    project_id: s.projectId,
    channel: s.channel,
    address: context.caller.role === 'project' ? s.address : maskRecipient(s.address, s.channel),
    scope: s.scope,
    reason: s.reason,
    source: s.source,
    detail: s.detail,
    created_at: s.createdAt.toISOString(),
    released_at: s.releasedAt?.toISOString() ?? null,
  };
}

const suppressionDetail = suppressionView.extend({
  evidence: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'The provider’s answer that caused it (provider, code); null for operator keys, like the address it concerns',
    ),
  source_job_id: z.string().nullable(),
  provider_event_id: z.string().nullable(),
  released_by: z.string().nullable(),
  release_reason: z.string().nullable(),
});

/** The suppression list: list_suppressions, get_suppression, add_suppression, release_suppression. */
@Injectable()
export class SuppressionsTools implements McpToolProvider {
  constructor(private readonly suppressions: SuppressionsService) {}

  tools() {
    return [
      defineTool({
        name: 'list_suppressions',
        title: 'List suppressions',
        description:
          'A project’s active suppressions, newest first: addresses nothing (scope all) or no marketing (scope marketing) is sent to, after a hard bounce, ' +
          'a complaint, an unsubscribe, a STOP, or by hand. Addresses are masked for operator keys. Look here when jobs fail as suppressed.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          channel: z.enum(CHANNELS).optional(),
          include_released: z.boolean().default(false),
          limit: z.number().int().min(1).max(500).default(100),
        }),
        output: z.object({ suppressions: z.array(suppressionView), count: z.number() }),
        run: async (args, context) => {
          const rows = await this.suppressions.list(context.project(args.project_id, true), {
            channel: args.channel,
            includeReleased: args.include_released,
            limit: args.limit,
          });
          const suppressions = rows.map((row) => present(row, context));
          return {
            structured: { suppressions, count: suppressions.length },
            text: suppressions.length
              ? suppressions.map((s) => `${s.id} ${s.channel} ${s.address} (${s.scope}, ${s.reason})`).join('\n')
              : 'No suppressions.',
          };
        },
      }),
      defineTool({
        name: 'get_suppression',
        title: 'One suppression',
        description:
          'One suppression, active or released, as GET /v1/suppressions/:id: why the address is suppressed (reason, source, the job and provider event that caused it), ' +
          'and who released it and why. Addresses are masked for operator keys, as on the admin suppression routes.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: z
            .uuid({ message: 'must be a suppression id (a UUID from list_suppressions)' })
            .describe('Suppression id from list_suppressions'),
        }),
        output: suppressionDetail,
        run: async (args, context) => {
          const row = await this.suppressions.get(context.project(args.project_id, true), args.id);
          const view = {
            ...present(row, context),
            evidence: context.caller.role === 'project' ? row.evidence : null,
            source_job_id: row.sourceJobId,
            provider_event_id: row.providerEventId,
            released_by: row.releasedBy,
            release_reason: row.releaseReason,
          };
          const state = view.released_at
            ? `released ${view.released_at} by ${view.released_by ?? 'unknown'}${view.release_reason ? ` (${view.release_reason})` : ''}`
            : 'active';
          return {
            structured: view,
            text: `Suppression ${view.id}: ${view.channel} ${view.address}, scope ${view.scope}, ${view.reason} from ${view.source} on ${view.created_at}; ${state}.`,
          };
        },
      }),
      defineTool({
        name: 'add_suppression',
        title: 'Suppress an address',
        description:
          'Stop sending to an address in a project: scope all (default) blocks everything, marketing only bulk/marketing messages. Jobs to it fail as suppressed ' +
          'without a provider call. Adding an address already suppressed changes nothing (all widens marketing). Undo with release_suppression.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          channel: z.enum(CHANNELS).default('email'),
          address: z.string().min(1).max(2048).describe('Email address, E.164 phone, chat id…'),
          scope: z.enum(SUPPRESSION_SCOPES).default('all'),
          detail: z.string().max(500).optional().describe('Why, for the next operator'),
        }),
        output: suppressionView.extend({ created: z.boolean() }),
        run: async (args, context) => {
          // Loaded, not only named: an operator naming no project gets a 404, not a failed insert.
          const project = await context.scopedProject(args.project_id);
          const { suppression, created } = await this.suppressions.suppress({
            projectId: project.id,
            channel: args.channel as Channel,
            address: args.address,
            scope: args.scope,
            reason: 'manual',
            source: context.actor.actor,
            detail: args.detail ? `${args.detail} (by ${context.actor.actor})` : `by ${context.actor.actor}`,
            ip: context.actor.ip,
          });
          const view = present(suppression, context);
          return {
            structured: { ...view, created },
            text: `${created ? 'Suppressed' : 'Already suppressed'}: ${view.channel} ${view.address} (${view.scope}), id ${view.id}.`,
          };
        },
      }),
      defineTool({
        name: 'release_suppression',
        title: 'Release a suppression',
        description:
          'Allow sending to a suppressed address again (the row stays as history). Only release a bounce or complaint when you know the address works again.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: z.string().min(1).max(64).describe('Suppression id from list_suppressions'),
          reason: z.string().max(300).optional(),
        }),
        output: z.object({ id: z.string(), released: z.boolean() }),
        run: async (args, context) => {
          const row = await this.suppressions.release(
            context.project(args.project_id, true),
            args.id,
            context.actor,
            args.reason ?? null,
          );
          return {
            structured: { id: row.id, released: true },
            text: `Suppression ${row.id} released; ${row.channel} messages reach the address again.`,
          };
        },
      }),
    ];
  }
}

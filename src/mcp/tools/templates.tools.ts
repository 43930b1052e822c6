import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { CHANNELS } from '../../domain/channels.js';
import { DeleteTemplateQueryDto, PreviewTemplateDto, UpsertTemplateDto } from '../../templates/dto/template.dto.js';
import { presentVariant, TemplatesService } from '../../templates/templates.service.js';
import { defineTool, DESTRUCTIVE_WRITE, IDEMPOTENT_WRITE, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { pageArgs, projectIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';
import { refuseReaderSubscriberPreview } from '../../templates/preview-access.js';

/** A variant's content, as list_templates lists it and preview_template renders it. */
const variantParts = {
  channel: z.string(),
  locale: z.string().nullable(),
  subject: z.string().nullable(),
  body: z.string(),
  body_html: z.string().nullable(),
  topic: z.string().nullable(),
};

const variantView = z.object({
  id: z.string(),
  ...variantParts,
  created_at: z.string(),
  updated_at: z.string(),
});

const templateIdArg = z.string().min(1).max(200).describe('Template id');

/** Stored templates (Liquid, per channel and locale): list_templates, preview_template, upsert_template. */
@Injectable()
export class TemplatesTools implements McpToolProvider {
  constructor(private readonly templates: TemplatesService) {}

  tools() {
    return [
      defineTool({
        name: 'list_templates',
        title: 'List templates',
        description:
          'A project’s template variants (one per id × channel × locale) with their subject, body and topic, a page at a time (next_cursor for the next page). Sends name a template with template_id.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          channel: z.enum(CHANNELS).optional(),
          limit: pageArgs.limit,
          cursor: pageArgs.cursor.describe('next_cursor of the previous page'),
          offset: z
            .number()
            .int()
            .min(0)
            .max(1_000_000)
            .default(0)
            .describe(
              'Deprecated: pass cursor instead (an offset skips rows that moved when templates change between pages)',
            ),
        }),
        output: z.object({ templates: z.array(variantView), total: z.number(), next_cursor: z.string().nullable() }),
        run: async (args, context) => {
          const page = await this.templates.list(context.project(args.project_id, true), {
            limit: args.limit,
            cursor: args.cursor,
            offset: args.offset,
            channel: args.channel,
          });
          const templates = page.items.map(presentVariant);
          const lines = templates.map(
            (t) => `${t.id} ${t.channel}${t.locale ? ` ${t.locale}` : ''}${t.topic ? ` (topic ${t.topic})` : ''}`,
          );
          if (page.nextCursor) lines.push(`More: call again with cursor ${page.nextCursor}`);
          return {
            structured: { templates, total: page.total, next_cursor: page.nextCursor },
            text: templates.length ? lines.join('\n') : 'No templates.',
          };
        },
      }),
      defineTool({
        name: 'preview_template',
        title: 'Preview a template',
        description:
          'Render a template with sample vars exactly as the worker would (locale fallback included), without sending anything; with subscriber_id, for that stored subscriber ' +
          '(their profile as subscriber.* and first_name…, their locale). Use it to check a fix before send_test.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: templateIdArg,
          channel: z.enum(CHANNELS).optional().describe('Required when the template has variants for several channels'),
          locale: z.string().max(35).optional(),
          subscriber_id: z
            .string()
            .min(1)
            .max(255)
            .optional()
            .describe(
              'Render for this stored subscriber (profile, locale); vars win over profile fields. Not with the read-only key',
            ),
          vars: z.record(z.string(), z.unknown()).optional(),
        }),
        output: z.object({ template_id: z.string(), ...variantParts }),
        run: async ({ project_id: projectId, id, ...rest }, context) => {
          refuseReaderSubscriberPreview(rest.subscriber_id, context.caller.role === 'readonly');
          const preview = await this.templates.preview(
            context.project(projectId, true),
            id,
            await validateDto(PreviewTemplateDto, rest),
          );
          return {
            structured: preview,
            text: `${preview.subject ? `Subject: ${preview.subject}\n` : ''}${preview.body}`,
          };
        },
      }),
      defineTool({
        name: 'upsert_template',
        title: 'Create or replace a template variant',
        description:
          'Save one template variant (id × channel × locale; no locale = the channel’s default) in Liquid ({{ name }}, {% if %}). Refused with the parse error if it does not parse. ' +
          'Saving the same content again changes nothing. Check it with preview_template.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: templateIdArg,
          channel: z.enum(CHANNELS),
          locale: z.string().max(35).optional(),
          subject: z.string().max(998).optional(),
          body: z.string().max(100_000),
          body_html: z.string().max(1_000_000).optional(),
          topic: z.string().max(64).optional(),
        }),
        output: z.object({ id: z.string(), channel: z.string(), locale: z.string().nullable(), created: z.boolean() }),
        run: async ({ project_id: projectId, ...fields }, context) => {
          const dto = await validateDto(UpsertTemplateDto, fields);
          // Loaded, not only named: an operator naming no project gets a 404, not a failed insert.
          const project = await context.scopedProject(projectId);
          const created = await this.templates.upsert(project.id, dto);
          return {
            structured: { id: dto.id, channel: dto.channel, locale: dto.locale || null, created },
            text: `Template ${dto.id} (${dto.channel}${dto.locale ? `, ${dto.locale}` : ''}) ${created ? 'created' : 'saved'}.`,
          };
        },
      }),
      defineTool({
        name: 'delete_template',
        title: 'Delete a template',
        description:
          'Delete a template: every variant, or only one channel’s (channel) or one locale’s (locale; "default" for the channel’s default variant). ' +
          'Sends that name it fail from then on; jobs already rendered are not touched.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: templateIdArg,
          channel: z.enum(CHANNELS).optional(),
          locale: z.string().min(1).max(35).optional().describe('A language tag such as es-MX, or default'),
        }),
        output: z.object({ id: z.string(), deleted: z.number().describe('Variants deleted') }),
        run: async ({ project_id: projectId, id, ...query }, context) => {
          const deleted = await this.templates.delete(
            context.project(projectId, true),
            id,
            await validateDto(DeleteTemplateQueryDto, query),
          );
          return { structured: { id, deleted }, text: `${deleted} variant(s) of template ${id} deleted.` };
        },
      }),
    ];
  }
}

import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { BULK_MAX_SUBSCRIBERS } from '../../subscribers/dto/bulk-subscribers.dto.js';
import { SubscribersBulkService } from '../../subscribers/subscribers-bulk.service.js';
import { defineTool, IDEMPOTENT_WRITE } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { projectIdArg } from './schemas.js';

/** How many refused items the sentence an agent reads spells out (the structured result has them all). */
const ERRORS_IN_TEXT = 10;

/**
 * bulk_upsert_subscribers: POST /v1/subscribers/bulk for agents. Items are loosely typed here
 * on purpose: each is checked by the route's own per-item validation, so a bad one is reported
 * by index while the others are written, exactly as over REST.
 */
@Injectable()
export class SubscribersBulkTools implements McpToolProvider {
  constructor(private readonly bulk: SubscribersBulkService) {}

  tools() {
    return [
      defineTool({
        name: 'bulk_upsert_subscribers',
        title: 'Create or update many subscribers',
        description:
          `Create or update up to ${BULK_MAX_SUBSCRIBERS} subscribers in one call, each as upsert_subscriber takes it (fields given are written, null clears one, data is merged). ` +
          'Refused items are listed in errors by index with the field and the fix; the others are written. Fix and resend only the refused ones: resending is harmless.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          subscribers: z
            .array(z.record(z.string(), z.unknown()))
            .min(1)
            .max(BULK_MAX_SUBSCRIBERS)
            .describe('Objects with id and any of email, phone, first_name, last_name, locale, timezone, data'),
        }),
        output: z.object({
          created: z.number(),
          updated: z.number(),
          duplicates: z.number(),
          failed: z.number(),
          errors: z.array(
            z.object({
              index: z.number(),
              id: z.string().nullable(),
              field: z.string().nullable(),
              message: z.string(),
            }),
          ),
        }),
        run: async ({ project_id: projectId, subscribers }, context) => {
          // Loaded, not only named: an operator naming no project gets a 404, not failed inserts.
          const project = await context.scopedProject(projectId);
          const result = await this.bulk.upsert(project.id, subscribers);
          const lines = result.errors
            .slice(0, ERRORS_IN_TEXT)
            .map((e) => `#${e.index}${e.id ? ` (${e.id})` : ''}: ${e.message}`);
          if (result.errors.length > ERRORS_IN_TEXT)
            lines.push(`… ${result.errors.length - ERRORS_IN_TEXT} more in errors`);
          const summary = `${result.created} created, ${result.updated} updated, ${result.failed} refused${result.duplicates ? `, ${result.duplicates} repeated id(s) folded` : ''}.`;
          return { structured: result, text: [summary, ...lines].join('\n'), isError: result.failed > 0 };
        },
      }),
    ];
  }
}

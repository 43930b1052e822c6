import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { SegmentsService } from '../../governance/segments/segments.service.js';
import { defineTool, McpToolError, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { projectIdArg } from './schemas.js';

/** A segment as JSON is bounded like a request body worth sending: a filter, not a list of ids. */
const SEGMENT_MAX_CHARS = 20_000;

/** preview_segment: POST /v1/segments/preview, through SegmentsService (the compiler refuses what is outside the grammar). */
@Injectable()
export class SegmentsTools implements McpToolProvider {
  constructor(private readonly segments: SegmentsService) {}

  tools() {
    return [
      defineTool({
        name: 'preview_segment',
        title: 'Preview a segment',
        description:
          'Count a project’s subscribers matching a segment (notifyd’s filter; {} is everyone), with up to ten matching ids, before a batch sends to it. ' +
          'Keys: locale, timezone (a value or a list), has_email, has_phone, created_after, created_before, data {key: value or list}, ' +
          'where [{field, op, value}] with fields id, email, phone, first_name, last_name, locale, timezone, created_at, data.<key>… and ops eq, neq, in, not_in, exists, contains, gt, gte, lt, lte. ' +
          'Example: {"locale": "fr", "has_email": true, "where": [{"field": "data.orders", "op": "gte", "value": 3}]}. Segments are not stored: batch takes the same object.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          segment: z.record(z.string(), z.unknown()).describe('The filter, e.g. {"locale": "fr"}'),
        }),
        output: z.object({ count: z.number(), sample: z.array(z.string()) }),
        run: async ({ project_id: projectId, segment }, context) => {
          if (JSON.stringify(segment).length > SEGMENT_MAX_CHARS)
            throw new McpToolError(
              `segment: must be at most ${SEGMENT_MAX_CHARS} characters as JSON; split a long list of values into several segments.`,
            );
          const project = await context.scopedProject(projectId);
          const { count, sample } = await this.segments.preview(project.id, segment);
          return {
            structured: { count, sample },
            text: `${count} subscriber(s) of ${project.id} match${sample.length ? `; first: ${sample.join(', ')}` : ''}.`,
          };
        },
      }),
    ];
  }
}

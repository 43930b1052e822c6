import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { presentCap } from '../../governance/caps/cap.presenter.js';
import { CapsService } from '../../governance/caps/caps.service.js';
import { SetCapDto } from '../../governance/caps/dto/cap.dto.js';
import { defineTool, IDEMPOTENT_WRITE, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { deleteTool } from './delete-tool.js';
import { projectIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';

const capView = z.object({
  id: z.string(),
  channel: z.string().describe('A channel, or * for all channels together'),
  topic: z.string().describe('A topic, or * for every message'),
  max_messages: z.number(),
  window_seconds: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

const CAP_COLUMNS = ['id', 'channel', 'topic', 'max_messages', 'window_seconds', 'updated_at'];

/** Per-recipient caps (/v1/caps): list_caps, set_cap, delete_cap, through CapsService. */
@Injectable()
export class CapsTools implements McpToolProvider {
  constructor(private readonly caps: CapsService) {}

  tools() {
    return [
      defineTool({
        name: 'list_caps',
        title: 'List recipient caps',
        description:
          'A project’s per-recipient caps: at most max_messages per subscriber per window_seconds, per channel × topic ("*" for all). Explains jobs skipped as over a cap.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ project_id: projectIdArg.optional() }),
        output: z.object({ caps: z.array(capView) }),
        run: async ({ project_id: projectId }, context) => {
          const project = await context.scopedProject(projectId);
          const caps = (await this.caps.list(project.id)).map(presentCap);
          return {
            structured: { caps },
            text: caps.length ? `${caps.length} cap(s) on ${project.id}.` : `${project.id} has no recipient caps.`,
            table: caps.length ? { rows: caps, columns: CAP_COLUMNS } : undefined,
          };
        },
      }),
      defineTool({
        name: 'set_cap',
        title: 'Set a recipient cap',
        description:
          'Create or replace the cap of a channel × topic: at most max_messages (1–100 000) per subscriber within window_seconds (60 s to 31 days). ' +
          'channel and topic default to "*". A message over a cap is skipped, not deferred. Setting the same cap again changes nothing.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          channel: z.string().min(1).max(20).optional().describe('A channel (email, sms…) or * (default)'),
          topic: z.string().min(1).max(64).optional().describe('A topic or * (default)'),
          max_messages: z.number().int().min(1).max(100_000),
          window_seconds: z
            .number()
            .int()
            .min(60)
            .max(31 * 86_400)
            .describe('Sliding window in seconds, 60 to 2678400 (31 days)'),
        }),
        output: z.object({ created: z.boolean(), cap: capView }),
        run: async ({ project_id: projectId, ...body }, context) => {
          const project = await context.scopedProject(projectId);
          const row = await this.caps.put(project.id, await validateDto(SetCapDto, body));
          const cap = presentCap(row);
          return {
            structured: { created: row.created, cap },
            text: `Cap ${row.created ? 'created' : 'replaced'} on ${project.id}: at most ${cap.max_messages} ${cap.channel} message(s) of topic ${cap.topic} per subscriber per ${cap.window_seconds} s.`,
            table: { rows: [cap], columns: CAP_COLUMNS },
          };
        },
      }),
      deleteTool({
        name: 'delete_cap',
        title: 'Delete a recipient cap',
        description: 'Remove a cap by id (from list_caps): messages it held back are sent from then on.',
        id: z.uuid({ message: 'must be a cap id (a UUID from list_caps)' }).describe('Cap id from list_caps'),
        remove: async (id, projectId, context) => {
          const project = await context.scopedProject(projectId);
          await this.caps.delete(project.id, id);
          return `Cap ${id} of ${project.id} deleted.`;
        },
      }),
    ];
  }
}

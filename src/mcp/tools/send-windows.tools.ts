import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { SendWindowDto } from '../../governance/send-windows/dto/send-window.dto.js';
import type { SendWindow } from '../../governance/send-windows/send-window.js';
import { SendWindowsService } from '../../governance/send-windows/send-windows.service.js';
import { defineTool, DESTRUCTIVE_WRITE, IDEMPOTENT_WRITE, type McpTool, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { projectIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';

const windowView = z.object({
  start: z.string(),
  end: z.string(),
  tz: z.string(),
  days: z.array(z.number()),
  applies_to: z.enum(['marketing', 'all']),
});
const output = z.object({
  project_id: z.string(),
  send_window: windowView.nullable().describe('null: the project sends at any time'),
});
const WINDOW_COLUMNS = ['start', 'end', 'tz', 'days', 'applies_to'];

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

function describe(projectId: string, window: SendWindow | null): string {
  return window
    ? `${projectId} sends ${window.applies_to === 'all' ? 'every job' : 'marketing jobs'} between ${window.start} and ${window.end} in each recipient’s time zone (else ${window.tz}).`
    : `${projectId} has no send window: it sends at any time.`;
}

/** What sets one send-window tool apart: its words, its arguments besides project_id, and what it does. */
interface WindowAction {
  name: string;
  title: string;
  description: string;
  annotations: McpTool['annotations'];
  args?: z.ZodRawShape;
  /** Reads or changes the window of the project the call acts on; answers the window now in force. */
  act(projectId: string, args: Record<string, unknown>): Promise<SendWindow | null>;
}

/** Each tool loads the project as its route does, acts on its window, and shows the window that results. */
function windowTool({ args = {}, act, ...words }: WindowAction): McpTool {
  return defineTool({
    ...words,
    audience: 'project',
    input: z.strictObject({ project_id: projectIdArg.optional(), ...args }),
    output,
    run: async ({ project_id: projectId, ...body }, context) => {
      const project = await context.scopedProject(projectId);
      const window = await act(project.id, body);
      return {
        structured: { project_id: project.id, send_window: window },
        text: describe(project.id, window),
        table: window ? { rows: [window], columns: WINDOW_COLUMNS } : undefined,
      };
    },
  });
}

/** The project's send window (/v1/send-window): get_send_window, set_send_window, delete_send_window. */
@Injectable()
export class SendWindowsTools implements McpToolProvider {
  constructor(private readonly windows: SendWindowsService) {}

  tools() {
    return [
      windowTool({
        name: 'get_send_window',
        title: 'Get the send window',
        description:
          'A project’s send window (quiet hours are outside it), read in each recipient’s time zone. Explains jobs deferred as "outside send window".',
        annotations: READ_ONLY,
        act: (projectId) => this.windows.projectWindow(projectId),
      }),
      windowTool({
        name: 'set_send_window',
        title: 'Set the send window',
        description:
          'Set a project’s send window: jobs it holds (marketing ones by default, every job with applies_to "all") wait for its next opening, in the recipient’s time zone ' +
          '(tz for recipients without one). end earlier than start makes an overnight window. Setting the same window again changes nothing.',
        annotations: IDEMPOTENT_WRITE,
        args: {
          start: z.string().regex(HH_MM, 'must be a 24-hour time "HH:MM", e.g. "08:00"'),
          end: z.string().regex(HH_MM, 'must be a 24-hour time "HH:MM", e.g. "21:00"'),
          tz: z.string().min(1).max(64).optional().describe('IANA zone, e.g. Europe/Paris; default UTC'),
          days: z
            .array(z.number().int().min(1).max(7))
            .min(1)
            .max(7)
            .optional()
            .describe('ISO weekdays 1 = Monday … 7 = Sunday; default every day'),
          applies_to: z.enum(['marketing', 'all']).optional(),
        },
        act: async (projectId, body) =>
          this.windows.putProjectWindow(projectId, await validateDto(SendWindowDto, body)),
      }),
      windowTool({
        name: 'delete_send_window',
        title: 'Remove the send window',
        description:
          'Remove a project’s send window: from then on it sends at any time (jobs already deferred keep their time).',
        annotations: DESTRUCTIVE_WRITE,
        act: async (projectId) => {
          await this.windows.setProjectWindow(projectId, null);
          return null;
        },
      }),
    ];
  }
}

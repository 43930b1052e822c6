import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ChannelReportService } from '../../project-providers/channel-report.service.js';
import { channelStatusView } from '../../project-providers/channel-status.view.js';
import { defineTool, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { projectIdArg } from './schemas.js';

const channelStatus = z.object({
  channel: z.string(),
  allowed: z.boolean().describe('The project lists the channel (informational)'),
  configured: z.boolean().describe('This instance delivers it: /v1/send will not refuse it'),
  provider: z.string().nullable(),
  own_account: z.boolean().describe('Through the project’s own provider account'),
  fallback_provider: z.string().nullable(),
  reason: z.string().nullable().describe('Why /v1/send refuses the channel, with the variable to set'),
});

/** The columns of list_channels' text table: every field, one row per channel. */
const CHANNEL_COLUMNS = [
  'channel',
  'allowed',
  'configured',
  'provider',
  'own_account',
  'fallback_provider',
  'reason',
] as const;

/** The channel report (GET /v1/channels) through the same ChannelReportService: list_channels. */
@Injectable()
export class ChannelsTools implements McpToolProvider {
  constructor(private readonly report: ChannelReportService) {}

  tools() {
    return [
      defineTool({
        name: 'list_channels',
        title: 'List a project’s channels',
        description:
          'For every channel, as GET /v1/channels: whether the project lists it (allowed), whether this instance delivers it (configured), the provider its messages go through ' +
          '(the project’s own account or the instance’s, with its fallback), and why a send on it is refused. Offer a channel when allowed and configured are both true.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ project_id: projectIdArg.optional() }),
        output: z.object({ project_id: z.string(), channels: z.array(channelStatus) }),
        run: async ({ project_id: projectId }, context) => {
          const project = await context.scopedProject(projectId);
          const channels = Object.entries(await this.report.forProject(project)).map(([channel, s]) => ({
            channel,
            ...channelStatusView(s),
          }));
          const usable = channels.filter((c) => c.allowed && c.configured).map((c) => c.channel);
          return {
            structured: { project_id: project.id, channels },
            text: `${project.id}: ${usable.length ? `usable channels ${usable.join(', ')}` : 'no channel both listed and configured'}.`,
            table: { rows: channels, columns: CHANNEL_COLUMNS },
          };
        },
      }),
    ];
  }
}

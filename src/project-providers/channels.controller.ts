import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import type { Channel } from '../domain/channels.js';
import type { ProjectRef } from '../projects/project.types.js';
import { ChannelReportService } from './channel-report.service.js';
import { channelStatusView } from './channel-status.view.js';
import type { ChannelReportDto, ChannelStatusDto, ChannelsResponseDto } from './dto/channel-report.dto.js';
import { Operation } from '../common/http/operation.decorator.js';

@ProjectController('v1/channels', 'Channels')
export class ChannelsController {
  constructor(private readonly report: ChannelReportService) {}

  @Operation('GET', [], 'Which channels the project lists and this instance delivers, with their providers')
  async listChannels(@CurrentProject() project: ProjectRef): Promise<ChannelsResponseDto> {
    const report = await this.report.forProject(project);
    const channels = Object.fromEntries(
      Object.entries(report).map(([channel, status]) => [channel, channelStatusView(status)]),
    );
    return { channels: channels as Record<Channel, ChannelStatusDto> satisfies ChannelReportDto };
  }
}

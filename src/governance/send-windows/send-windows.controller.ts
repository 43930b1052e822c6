import { Body } from '@nestjs/common';
import { CurrentProject } from '../../projects/auth/auth.decorators.js';
import { ProjectController } from '../../projects/auth/project-controller.decorator.js';
import { Operation } from '../../common/http/operation.decorator.js';
import type { ProjectRef } from '../../projects/project.types.js';
import { SendWindowDto, SendWindowResponseDto } from './dto/send-window.dto.js';
import { SendWindowsService } from './send-windows.service.js';

/** The project's send window (notifyd keeps it in `settings.send_window`). */
@ProjectController('v1/send-window', 'Send windows')
export class SendWindowsController {
  constructor(private readonly windows: SendWindowsService) {}

  @Operation('GET', [], 'Read the project’s send window (null: send at any time)')
  async getSendWindow(@CurrentProject() project: ProjectRef): Promise<SendWindowResponseDto> {
    return { send_window: await this.windows.projectWindow(project.id) };
  }

  @Operation('PUT', [400, 422], {
    summary: 'Set the project’s send window (quiet hours outside it), read in each recipient’s time zone',
  })
  async setSendWindow(
    @CurrentProject() project: ProjectRef,
    @Body() body: SendWindowDto,
  ): Promise<SendWindowResponseDto> {
    return { send_window: await this.windows.putProjectWindow(project.id, body) };
  }

  @Operation('DELETE', [], 'Remove the project’s send window (send at any time)')
  async deleteSendWindow(@CurrentProject() project: ProjectRef): Promise<SendWindowResponseDto> {
    await this.windows.setProjectWindow(project.id, null);
    return { send_window: null };
  }
}

import { Body, Param } from '@nestjs/common';
import { CurrentProject } from '../../projects/auth/auth.decorators.js';
import { ProjectController } from '../../projects/auth/project-controller.decorator.js';
import { Operation } from '../../common/http/operation.decorator.js';
import type { ProjectRef } from '../../projects/project.types.js';
import { presentCap } from './cap.presenter.js';
import { CapsService } from './caps.service.js';
import { CapListDto, DeleteCapResponseDto, SetCapDto, SetCapResponseDto } from './dto/cap.dto.js';

/** Per-recipient caps of the project. */
@ProjectController('v1/caps', 'Recipient caps')
export class CapsController {
  constructor(private readonly caps: CapsService) {}

  @Operation('GET', [], 'List the project’s per-recipient caps')
  async listCaps(@CurrentProject() project: ProjectRef): Promise<CapListDto> {
    return { data: (await this.caps.list(project.id)).map(presentCap) };
  }

  @Operation('PUT', [400, 422], {
    summary: 'Create or replace the cap of a channel × topic: at most N messages per subscriber per window',
  })
  async setCap(@CurrentProject() project: ProjectRef, @Body() body: SetCapDto): Promise<SetCapResponseDto> {
    const row = await this.caps.put(project.id, body);
    return { success: true, created: row.created, cap: presentCap(row) };
  }

  @Operation('DELETE /:id', [400, 404], 'Remove a cap')
  async deleteCap(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<DeleteCapResponseDto> {
    await this.caps.delete(project.id, id);
    return { success: true, id };
  }
}

import { Body, Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject, ProjectAuth } from '../../common/auth/auth.decorators.js';
import { ApiError } from '../../common/errors/api-error.js';
import { ApiErrors } from '../../common/http/api-errors.decorator.js';
import type { ProjectRef } from '../../projects/project.types.js';
import type { CapRow } from './caps.repository.js';
import { CapsService } from './caps.service.js';
import { CapDto, CapListDto, DeleteCapResponseDto, SetCapDto, SetCapResponseDto } from './dto/cap.dto.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Per-recipient caps of the project. */
@ApiTags('Recipient caps')
@ProjectAuth()
@Controller('v1/caps')
export class CapsController {
  constructor(private readonly caps: CapsService) {}

  @Get()
  @ApiOperation({ operationId: 'listCaps', summary: 'List the project’s per-recipient caps' })
  async listCaps(@CurrentProject() project: ProjectRef): Promise<CapListDto> {
    return { data: (await this.caps.list(project.id)).map(presentCap) };
  }

  @Put()
  @ApiOperation({ operationId: 'setCap', summary: 'Create or replace the cap of a channel × topic: at most N messages per subscriber per window' })
  @ApiErrors(400, 422)
  async setCap(@CurrentProject() project: ProjectRef, @Body() body: SetCapDto): Promise<SetCapResponseDto> {
    const row = await this.caps.set(project.id, { channel: body.channel ?? '*', topic: body.topic ?? '*', maxMessages: body.max_messages, windowSeconds: body.window_seconds });
    return { success: true, created: row.created, cap: presentCap(row) };
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deleteCap', summary: 'Remove a cap' })
  @ApiErrors(400, 404)
  async deleteCap(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<DeleteCapResponseDto> {
    if (!UUID.test(id)) throw ApiError.badRequest('invalid_id', `'${id.slice(0, 60)}' is not a cap id: cap ids are UUIDs (see GET /v1/caps).`);
    await this.caps.delete(project.id, id);
    return { success: true, id };
  }
}

function presentCap(c: CapRow): CapDto {
  return {
    id: c.id,
    channel: c.channel,
    topic: c.topic,
    max_messages: c.maxMessages,
    window_seconds: c.windowSeconds,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

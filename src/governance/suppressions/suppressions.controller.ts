import { Body, Ip, Param, Query } from '@nestjs/common';
import { CurrentProject } from '../../projects/auth/auth.decorators.js';
import { ProjectController } from '../../projects/auth/project-controller.decorator.js';
import { Operation } from '../../common/http/operation.decorator.js';
import type { ProjectRef } from '../../projects/project.types.js';
import {
  CreateSuppressionDto,
  CreateSuppressionResponseDto,
  ListSuppressionsQueryDto,
  ReleaseSuppressionQueryDto,
  ReleaseSuppressionResponseDto,
  SuppressionListDto,
  SuppressionResponseDto,
} from './dto/suppression.dto.js';
import { encodeSuppressionCursor, presentSuppression } from './suppression.presenter.js';
import { decodeTimeIdCursor } from '../../common/pagination/cursor.js';
import { suppressionRequest } from './suppression-request.js';
import { SuppressionsService } from './suppressions.service.js';

@ProjectController('v1/suppressions', 'Suppressions')
export class SuppressionsController {
  constructor(private readonly suppressions: SuppressionsService) {}

  @Operation('GET', [400], 'List the project’s suppressions, newest first (active only unless include_released)')
  async listSuppressions(
    @CurrentProject() project: ProjectRef,
    @Query() query: ListSuppressionsQueryDto,
  ): Promise<SuppressionListDto> {
    const limit = query.limit ?? 200;
    const after = decodeTimeIdCursor(query.cursor);
    const rows = await this.suppressions.list(project.id, {
      includeReleased: query.include_released ?? false,
      channel: query.channel,
      address: query.address,
      after,
      limit: limit + 1,
    });
    const items = rows.slice(0, limit);
    return {
      data: items.map(presentSuppression),
      next_cursor: rows.length > limit ? encodeSuppressionCursor(items[items.length - 1]) : null,
    };
  }

  @Operation('POST', [400, 422], 'Suppress an address on a channel (idempotent; scope all or marketing)')
  async createSuppression(
    @CurrentProject() project: ProjectRef,
    @Body() body: CreateSuppressionDto,
    @Ip() ip: string,
  ): Promise<CreateSuppressionResponseDto> {
    const { suppression, created } = await this.suppressions.suppress({
      projectId: project.id,
      ...suppressionRequest(body),
      source: 'api_key',
      detail: body.detail ?? null,
      ip,
    });
    return { success: true, created, suppression: presentSuppression(suppression) };
  }

  @Operation('GET /:id', [404], 'Get one suppression, active or released')
  async getSuppression(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
  ): Promise<SuppressionResponseDto> {
    return { success: true, suppression: presentSuppression(await this.suppressions.get(project.id, id)) };
  }

  @Operation('DELETE /:id', [404], 'Release a suppression (kept as history, audited); the address can be sent to again')
  async releaseSuppression(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Query() query: ReleaseSuppressionQueryDto,
    @Ip() ip: string,
  ): Promise<ReleaseSuppressionResponseDto> {
    const row = await this.suppressions.release(project.id, id, { actor: 'api', ip }, query.reason ?? null);
    return { success: true, id: row.id, suppression: presentSuppression(row) };
  }
}

import { Body, Param, Query } from '@nestjs/common';
import { AdminController, CurrentOperator, ReaderAllowed } from '../../projects/auth/auth.decorators.js';
import { Operation } from '../../common/http/operation.decorator.js';
import type { Actor } from '../../domain/actor.js';
import { ProjectsService } from '../../projects/projects.service.js';
import {
  AdminCreateSuppressionDto,
  AdminCreateSuppressionResponseDto,
  AdminListSuppressionsQueryDto,
  AdminReleaseSuppressionResponseDto,
  AdminSuppressionListDto,
} from './dto/suppression.dto.js';
import { presentSuppressionMasked } from './suppression.presenter.js';
import { suppressionRequest } from './suppression-request.js';
import { SuppressionsService } from './suppressions.service.js';

/** notifyd's operator routes over every project's suppressions (addresses masked). */
@AdminController('v1/admin/suppressions', 'Admin: suppressions')
export class AdminSuppressionsController {
  constructor(
    private readonly suppressions: SuppressionsService,
    private readonly projects: ProjectsService,
  ) {}

  @Operation('GET', [422], 'Active suppressions of one project or all, newest first, addresses masked')
  @ReaderAllowed()
  async adminListSuppressions(@Query() query: AdminListSuppressionsQueryDto): Promise<AdminSuppressionListDto> {
    const rows = await this.suppressions.listActiveForOperators(query.project_id ?? null, query.limit ?? 100);
    return { suppressions: rows.map(presentSuppressionMasked), count: rows.length };
  }

  @Operation('POST', [422], 'Suppress an address for a project (idempotent; audited as the operator)')
  async adminCreateSuppression(
    @Body() body: AdminCreateSuppressionDto,
    @CurrentOperator() by: Actor,
  ): Promise<AdminCreateSuppressionResponseDto> {
    await this.projects.getNamed(body.project_id);
    const { suppression, created } = await this.suppressions.suppress({
      projectId: body.project_id,
      ...suppressionRequest(body),
      source: by.actor,
      // notifyd marks operator entries in the detail.
      detail: `${body.detail ?? 'added'} (by admin)`,
      ip: by.ip,
    });
    return { success: true, created, suppression: presentSuppressionMasked(suppression) };
  }

  @Operation('DELETE /:id', [404], 'Release any project’s suppression (kept as history, audited)')
  async adminReleaseSuppression(
    @Param('id') id: string,
    @CurrentOperator() by: Actor,
  ): Promise<AdminReleaseSuppressionResponseDto> {
    const row = await this.suppressions.release(null, id, by);
    return { id: row.id, released: true };
  }
}

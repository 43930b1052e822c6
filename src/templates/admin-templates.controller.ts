import { Body, Param, Query } from '@nestjs/common';
import { AdminController, CurrentCaller, CurrentOperator, ReaderAllowed } from '../projects/auth/auth.decorators.js';
import type { OperatorRole } from '../projects/auth/admin-auth.guard.js';
import { Operation } from '../common/http/operation.decorator.js';
import { AuditService } from '../audit/audit.service.js';
import type { Actor } from '../domain/actor.js';
import { ExistingProjectPipe } from '../projects/existing-project.pipe.js';
import { ProjectsService } from '../projects/projects.service.js';
import {
  ListTemplatesQueryDto,
  PreviewTemplateDto,
  TemplateDto,
  TemplateListDto,
  TemplatePreviewDto,
  UpsertTemplateDto,
  UpsertTemplateResponseDto,
} from './dto/template.dto.js';
import { refuseReaderSubscriberPreview } from './preview-access.js';
import { templatePage } from './template-page.js';
import { presentVariant, TemplatesService } from './templates.service.js';

/**
 * Any project's templates for operators (`/v1/admin/projects/:id/templates`): read and preview
 * with the read-only key too; saving a variant needs the admin key and is audited.
 */
@AdminController('v1/admin/projects/:id/templates', 'Admin: templates')
export class AdminTemplatesController {
  constructor(
    private readonly templates: TemplatesService,
    private readonly projects: ProjectsService,
    private readonly audit: AuditService,
  ) {}

  @Operation('GET', [400, 404, 422], 'A project’s template variants, by id, channel and locale')
  @ReaderAllowed()
  async adminListTemplates(
    @Param('id', ExistingProjectPipe) projectId: string,
    @Query() query: ListTemplatesQueryDto,
  ): Promise<TemplateListDto> {
    return templatePage(this.templates, projectId, query);
  }

  @Operation('GET /:template_id', [404], 'One of a project’s templates with all its channel and locale variants')
  @ReaderAllowed()
  async adminGetTemplate(
    @Param('id', ExistingProjectPipe) projectId: string,
    @Param('template_id') id: string,
  ): Promise<TemplateDto> {
    return { template_id: id, variants: (await this.templates.get(projectId, id)).map(presentVariant) };
  }

  @Operation('POST', [400, 404, 422, 503], {
    summary: 'Create or replace a project’s template variant (id × channel × locale); Liquid is checked on save',
  })
  async adminUpsertTemplate(
    @Param('id', ExistingProjectPipe) projectId: string,
    @Body() body: UpsertTemplateDto,
    @CurrentOperator() by: Actor,
  ): Promise<UpsertTemplateResponseDto> {
    const created = await this.templates.upsert(projectId, body);
    await this.audit.record({
      projectId,
      actor: by.actor,
      action: 'template.saved',
      resource: body.id,
      metadata: { channel: body.channel, locale: body.locale ?? null },
      ip: by.ip,
    });
    return { success: true, id: body.id, channel: body.channel, locale: body.locale ?? null, created };
  }

  @Operation('POST /:template_id/preview', [403, 404, 422, 503], {
    summary:
      'Render a project’s template (or an unsaved draft of it) with sample vars, as a send would; changes nothing',
    description: 'With `subscriber_id` (a stored subscriber’s profile) the admin key only: the read-only key gets 403.',
  })
  @ReaderAllowed()
  async adminPreviewTemplate(
    @Param('id') projectId: string,
    @Param('template_id') id: string,
    @Body() body: PreviewTemplateDto,
    @CurrentCaller() caller: { operator: OperatorRole | null },
  ): Promise<TemplatePreviewDto> {
    // The read-only key's refusal answers before the project is looked up (so no ExistingProjectPipe here).
    refuseReaderSubscriberPreview(body.subscriber_id, caller.operator !== 'admin');
    await this.projects.get(projectId);
    return this.templates.preview(projectId, id, body);
  }
}

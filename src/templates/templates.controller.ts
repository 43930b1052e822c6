import { Body, Param, Query } from '@nestjs/common';
import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { ProjectRef } from '../projects/project.types.js';
import {
  DeleteTemplateQueryDto,
  DeleteTemplateResponseDto,
  ListTemplatesQueryDto,
  PreviewTemplateDto,
  TemplateDto,
  TemplateListDto,
  TemplatePreviewDto,
  UpsertTemplateDto,
  UpsertTemplateResponseDto,
} from './dto/template.dto.js';
import { templatePage } from './template-page.js';
import { presentVariant, TemplatesService } from './templates.service.js';

@ProjectController('v1/templates', 'Templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Operation('POST', [400, 422, 503], {
    summary: 'Create or replace a template variant (id × channel × locale); Liquid is checked on save',
  })
  async upsertTemplate(
    @CurrentProject() project: ProjectRef,
    @Body() body: UpsertTemplateDto,
  ): Promise<UpsertTemplateResponseDto> {
    const created = await this.templates.upsert(project.id, body);
    return { success: true, id: body.id, channel: body.channel, locale: body.locale ?? null, created };
  }

  @Operation('GET', [400, 422], 'List template variants, by id, channel and locale')
  async listTemplates(
    @CurrentProject() project: ProjectRef,
    @Query() query: ListTemplatesQueryDto,
  ): Promise<TemplateListDto> {
    return templatePage(this.templates, project.id, query);
  }

  @Operation('GET /:id', [404], 'Get a template with all its channel and locale variants')
  async getTemplate(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<TemplateDto> {
    return { template_id: id, variants: (await this.templates.get(project.id, id)).map(presentVariant) };
  }

  @Operation('DELETE /:id', [404, 422], 'Delete a template (all variants, or one channel’s or locale’s)')
  async deleteTemplate(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Query() query: DeleteTemplateQueryDto,
  ): Promise<DeleteTemplateResponseDto> {
    return { success: true, deleted: await this.templates.delete(project.id, id, query) };
  }

  @Operation('POST /:id/preview', [404, 422, 503], {
    summary: 'Render a template with sample vars, as a send would (locale fallback included)',
  })
  async previewTemplate(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Body() body: PreviewTemplateDto,
  ): Promise<TemplatePreviewDto> {
    return this.templates.preview(project.id, id, body);
  }
}

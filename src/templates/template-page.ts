import type { ListTemplatesQueryDto, TemplateListDto } from './dto/template.dto.js';
import { presentVariant, type TemplatesService } from './templates.service.js';

/** A page of a project's template variants, as both listings (project key and operators) answer it. */
export async function templatePage(
  templates: TemplatesService,
  projectId: string,
  query: ListTemplatesQueryDto,
): Promise<TemplateListDto> {
  const limit = query.limit ?? 50;
  const page = await templates.list(projectId, {
    limit,
    cursor: query.cursor,
    offset: query.offset,
    channel: query.channel,
  });
  return {
    items: page.items.map(presentVariant),
    next_cursor: page.nextCursor,
    total: page.total,
    limit,
    offset: query.offset ?? 0,
  };
}

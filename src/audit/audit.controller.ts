import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../common/auth/auth.decorators.js';
import { ApiError } from '../common/errors/api-error.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { decodeCursor, encodeCursor } from '../common/pagination/cursor.js';
import { AuditRepository } from './audit.repository.js';
import { AuditListDto, AuditQueryDto } from './dto/audit.dto.js';

@ApiTags('Admin: audit')
@Controller('v1/admin/audit')
export class AuditController {
  constructor(private readonly repository: AuditRepository) {}

  @Get()
  @AdminAuth()
  @ApiOperation({ operationId: 'listAudit', summary: 'The audit log of state changes, newest first, filtered by actor, action, target, project and time' })
  @ApiErrors(400, 422)
  async listAudit(@Query() q: AuditQueryDto): Promise<AuditListDto> {
    const limit = q.limit ?? 100;
    const beforeId = decodeCursor(q.cursor);
    if (beforeId !== undefined && !/^\d{1,19}$/.test(beforeId)) throw ApiError.badRequest('invalid_cursor', 'cursor is not one this API returned; pass next_cursor from the previous page unchanged.');
    const since = q.since ? new Date(q.since) : undefined;
    const until = q.until ? new Date(q.until) : undefined;
    if (since && until && since >= until) throw ApiError.badRequest('invalid_range', 'since must be before until.');
    if (q.offset !== undefined && q.cursor) throw ApiError.unprocessable('validation_failed', 'offset and cursor cannot be combined: page with cursor (next_cursor of the previous page); offset is deprecated.');
    const filter = { actor: q.actor, action: q.action, target: q.target, projectId: q.project_id, since, until };
    const rows = await this.repository.list({ ...filter, beforeId, limit: limit + 1, offset: q.offset });
    const page = rows.slice(0, limit);
    const answer = {
      items: page.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
      next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1].id) : null,
    };
    // notifyd 0.x's offset paging (deprecated): its answer also had the total, the limit and the offset.
    if (q.offset === undefined) return answer;
    return { ...answer, total: await this.repository.count(filter), limit, offset: q.offset };
  }
}

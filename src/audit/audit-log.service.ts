import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { decodeCursor, encodeCursor } from '../common/pagination/cursor.js';
import { AuditRepository } from './audit.repository.js';
import type { AuditEntryDto, AuditListDto, AuditQueryDto } from './dto/audit.dto.js';

/** Reads the audit log a page at a time, for GET /v1/admin/audit and the list_audit_log tool. */
@Injectable()
export class AuditLogService {
  constructor(private readonly repository: AuditRepository) {}

  async list(q: AuditQueryDto): Promise<AuditListDto> {
    const limit = q.limit ?? 100;
    const beforeId = decodeCursor(q.cursor);
    if (beforeId !== undefined && !/^\d{1,19}$/.test(beforeId))
      throw ApiError.badRequest(
        'invalid_cursor',
        'cursor is not one this API returned; pass next_cursor from the previous page unchanged.',
      );
    const since = q.since ? new Date(q.since) : undefined;
    const until = q.until ? new Date(q.until) : undefined;
    if (since && until && since >= until) throw ApiError.badRequest('invalid_range', 'since must be before until.');
    if (q.offset !== undefined && q.cursor)
      throw ApiError.unprocessable(
        'validation_failed',
        'offset and cursor cannot be combined: page with cursor (next_cursor of the previous page); offset is deprecated.',
      );
    const filter = { actor: q.actor, action: q.action, target: q.target, projectId: q.project_id, since, until };
    const rows = await this.repository.list({ ...filter, beforeId, limit: limit + 1, offset: q.offset });
    const page = rows.slice(0, limit);
    const answer = {
      items: page.map((r): AuditEntryDto => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
      next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1].id) : null,
    };
    // notifyd 0.x's offset paging (deprecated): its answer also had the total, the limit and the offset.
    if (q.offset === undefined) return answer;
    return { ...answer, total: await this.repository.count(filter), limit, offset: q.offset };
  }
}

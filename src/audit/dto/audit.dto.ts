import { IsOptional } from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';
import { IsDeprecatedOffset } from '../../common/pagination/deprecated-offset.js';
import { IsRfc3339 } from '../../common/validation/validators.js';
import { IsProjectId } from '../../projects/dto/project-id.validator.js';
import { IsPageSize } from '../../common/pagination/page-size.js';

export class AuditQueryDto {
  /** Who acted: admin, readonly, api_key, mcp, system, a provider… @example "admin" */
  @IsOptional()
  @IsText({ max: 100 })
  actor?: string;

  /** Exact action, dotted. @example "project.key_rotated" */
  @IsOptional()
  @IsText({ max: 100 })
  action?: string;

  /** The object acted on (project id, job id, lane…). @example "acme" */
  @IsOptional()
  @IsText({ max: 200 })
  target?: string;

  /** @example "acme" */
  @IsOptional()
  @IsProjectId()
  project_id?: string;

  /** From this time (RFC 3339, inclusive). @example "2026-11-29T00:00:00Z" */
  @IsOptional()
  @IsRfc3339()
  since?: string;

  /** Before this time (RFC 3339, exclusive). @example "2026-11-30T00:00:00Z" */
  @IsOptional()
  @IsRfc3339()
  until?: string;

  /** next_cursor from the previous page. @example "WyIxMjMiXQ" */
  @IsOptional()
  @IsText({ max: 200 })
  cursor?: string;

  /** 1–500, default 100. @example 100 */
  @IsPageSize(500, 'must be a whole number between 1 and 500')
  limit?: number;

  // Kept for notifyd 0.x callers; the description is what clients see (OpenAPI, llms.txt).
  @IsDeprecatedOffset(
    'Lines to skip, as notifyd 0.x paged (0–100000); the answer then carries `total` (lines matching the filters), `limit` and `offset`. Not with a cursor.',
    { max: 100_000, message: 'must be a whole number between 0 and 100000' },
  )
  offset?: number;
}

export class AuditEntryDto {
  /** @example "1042" */
  id: string;
  /** @example "acme" */
  project_id: string | null;
  /** @example "admin" */
  actor: string;
  /** @example "project.key_rotated" */
  action: string;
  /** @example "acme" */
  resource: string | null;
  /** Names and ids only, never message bodies, recipients or secrets. @example {} */
  metadata: Record<string, unknown>;
  /** @example "203.0.113.7" */
  ip: string | null;
  /** @example "2026-11-30T06:00:00.000Z" */
  created_at: string;
}

export class AuditListDto {
  items: AuditEntryDto[];
  /** Pass as cursor for the next (older) page; null on the last page. @example null */
  next_cursor: string | null;
  /** Deprecated, with `offset` only (notifyd 0.x's paging): the lines matching the filters. @example 1234 */
  total?: number;
  /** Deprecated, with `offset` only: the page size used. @example 100 */
  limit?: number;
  /** Deprecated, with `offset` only: the offset asked for. @example 0 */
  offset?: number;
}

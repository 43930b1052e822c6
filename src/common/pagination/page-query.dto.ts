import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * The page size most list routes take: 1–200, 50 when absent (each service applies the
 * default). Routes with other bounds (inbox, jobs, audit) declare their own `limit`.
 */
export class PageLimitQueryDto {
  /**
   * Page size, 1–200 (default 50).
   * @example 50
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;
}

/** `limit` and the keyset `cursor` of the lists whose cursors stay under 500 characters. */
export class PageQueryDto extends PageLimitQueryDto {
  /** @example "WyIyMDI2LTExLTMwIDEwOjAwOjAwKzAwIiwiM2YyYiJd" */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  cursor?: string;
}

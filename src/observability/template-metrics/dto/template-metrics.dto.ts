import { IsOptional } from 'class-validator';
import { IsText } from '../../../common/validation/bounded.js';
import { IsDigestWindow } from '../../../common/validation/digest-window.decorators.js';
import { IsProjectId } from '../../../projects/dto/project-id.validator.js';

export class TemplateMetricsQueryDto {
  /**
   * Window: 1h, 6h, 24h, 7d (default) or 30d.
   * @example "7d"
   */
  @IsDigestWindow()
  window?: string;

  /**
   * Bucket size: 1h or 1d (default).
   * @example "1d"
   */
  @IsOptional()
  @IsText({ max: 10 })
  bucket?: string;

  /**
   * Only this project's jobs (default: every project).
   * @example "acme"
   */
  @IsOptional()
  @IsProjectId()
  project_id?: string;
}

export class TemplateFunnelRowDto {
  /**
   * The job's template id, else its `template` tag, else its `category` tag, else `untemplated`.
   * @example "welcome"
   */
  template: string;
  /** Start of the bucket. @example "2026-11-30T00:00:00.000Z" */
  bucket: string;
  /** @example 120 */
  sent: number;
  /** @example 2 */
  failed: number;
  /** @example 115 */
  delivered: number;
  /** @example 3 */
  bounced: number;
  /** @example 0 */
  complained: number;
  /** @example 64 */
  opened: number;
  /** @example 12 */
  clicked: number;
}

export class TemplateMetricsDto {
  /** @example "7d" */
  window: string;
  /** @example "1d" */
  bucket: string;
  rows: TemplateFunnelRowDto[];
}

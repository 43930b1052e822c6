import { IsObject } from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';

export class PutProjectProviderDto {
  /**
   * Provider name on this channel (one that supports per-project accounts).
   * @example "resend"
   */
  @IsText({
    pattern: /^[a-z0-9][a-z0-9_-]{0,39}$/,
    message: 'must be a provider name such as resend, postmark, ses or sendgrid',
  })
  provider: string;

  /**
   * The provider's settings for this project's own account; secret ones (API keys, tokens) are
   * encrypted at rest and never returned.
   * @example {"api_key": "re_123456789abcdef"}
   */
  @IsObject()
  settings: Record<string, string>;
}

export class ProjectProviderDto {
  /** @example "acme" */
  project_id: string;
  /** @example "email" */
  channel: string;
  /** @example "resend" */
  provider: string;
  /**
   * Plain settings as stored; secret ones masked (last 4 characters at most).
   * @example {"api_key": "…cdef"}
   */
  settings: Record<string, string>;
  /**
   * Id of the NOTIFYD_SECRET_KEY the secrets are sealed with (rotation).
   * @example "k1"
   */
  key_id: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  updated_at: string;
}

export class ProjectProviderListDto {
  providers: ProjectProviderDto[];
}

export class ResealResultDto {
  /** Rows re-encrypted under the current key. @example 3 */
  resealed: number;
  /** `project/channel` rows no configured key opens (set their credentials again). @example [] */
  unreadable: string[];
}

export class DeletedProjectProviderDto {
  /** @example true */
  success: boolean;
}

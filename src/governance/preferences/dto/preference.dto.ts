import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { IsListOf } from '../../../common/validation/list-of.js';
import { IsText } from '../../../common/validation/bounded.js';
import { CHANNELS } from '../../../domain/channels.js';
import { IsTopic } from '../../../common/validation/is-topic.js';
import { TEMPLATE_ID_HELP } from '../../../templates/template-id.js';

const CHANNEL_OR_ALL = [...CHANNELS, '*'] as const;

export class PreferenceInputDto {
  /**
   * A channel, or `*` for every channel.
   * @example "email"
   */
  @IsIn(CHANNEL_OR_ALL, { message: `channel must be one of ${CHANNEL_OR_ALL.join(', ')}` })
  channel: string;

  /**
   * Scope the choice to a topic (wins over workflow_id).
   * @example "tips"
   */
  @IsOptional()
  @IsTopic()
  topic?: string;

  /**
   * Scope the choice to a workflow or template id; `*` or absent (with no topic) = everything.
   * @example "weekly_digest"
   */
  @IsOptional()
  @IsText({
    pattern: /^(\*|[A-Za-z0-9_.:-]{1,128})$/,
    message: `workflow_id ${TEMPLATE_ID_HELP.replace('must', 'must be * or')}`,
  })
  workflow_id?: string;

  /**
   * false opts the subscriber out of this scope; true opts back in (and overrides a broader opt-out).
   * @example false
   */
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled: boolean;
}

export class PutPreferencesDto {
  /** Rows to write (each upserted by channel × scope); at most 100. */
  @IsListOf(() => PreferenceInputDto, { min: 1, max: 100 })
  preferences: PreferenceInputDto[];
}

export class PreferenceDto {
  /** @example "email" */
  channel: string;
  /**
   * The topic of a topic-scoped row, else null.
   * @example "tips"
   */
  topic: string | null;
  /**
   * notifyd's scope column: the workflow/template id, the topic of a topic row, or `*`.
   * @example "tips"
   */
  workflow_id: string;
  /**
   * topic, workflow or all.
   * @example "topic"
   */
  scope_kind: string;
  /** @example false */
  enabled: boolean;
  /** @example "2026-11-30T10:00:00.000Z" */
  updated_at: string;
}

export class PreferencesDto {
  /** @example "user_123" */
  subscriber_id: string;
  preferences: PreferenceDto[];
}

export class PutPreferencesResponseDto {
  /** @example true */
  success: boolean;
  /**
   * Rows written.
   * @example 2
   */
  updated: number;
}

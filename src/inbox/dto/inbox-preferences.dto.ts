import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsIn } from 'class-validator';
import { IsListOf } from '../../common/validation/list-of.js';
import { CHANNELS } from '../../domain/channels.js';
import { IsTopic } from '../../common/validation/is-topic.js';

export class PreferenceTopicDto {
  /** @example "tips" */
  id: string;
  /**
   * The project's label (settings.preference_topics), else null.
   * @example "Tips and tricks"
   */
  label: string | null;
  /**
   * Shown, never switched off by the subscriber.
   * @example false
   */
  transactional: boolean;
}

export class PreferenceCellDto {
  /** @example "email" */
  channel: string;
  /** @example "tips" */
  topic: string;
  /**
   * Whether a message of this topic on this channel reaches the subscriber, as the preference rule decides it now.
   * @example true
   */
  enabled: boolean;
  /**
   * False for a transactional topic.
   * @example true
   */
  switchable: boolean;
}

export class SubscriberPreferencesDto {
  /** @example "user_123" */
  subscriber_id: string;
  /**
   * The subscriber's channels: the project's, without those it has no address for.
   * @example ["email", "in_app"]
   */
  channels: string[];
  /** The project's topics (settings.preference_topics), then marketing, then any the subscriber has a choice for. */
  topics: PreferenceTopicDto[];
  /** One cell per topic × channel. */
  preferences: PreferenceCellDto[];
  /**
   * A fresh signed link to the subscriber's hosted preference page (400 days): absolute under
   * PUBLIC_URL, else a path on this API.
   * @example "https://notify.example.com/p/p1.j.eyJw….x9"
   */
  page_url: string;
}

export class PreferenceChoiceDto {
  @ApiProperty({ enum: CHANNELS, example: 'email' })
  @IsIn(CHANNELS, { message: `channel must be one of ${CHANNELS.join(', ')}` })
  channel: string;

  /** @example "tips" */
  @IsTopic()
  topic: string;

  /** @example false */
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled: boolean;
}

export class PutSubscriberPreferencesDto {
  /** Cells to set (a cell already so is left as it is); at most 100. */
  @IsListOf(() => PreferenceChoiceDto, { min: 1, max: 100 })
  preferences: PreferenceChoiceDto[];
}

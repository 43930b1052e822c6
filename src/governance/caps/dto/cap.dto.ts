import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsText } from '../../../common/validation/bounded.js';
import { CHANNELS } from '../../../domain/channels.js';
import { normaliseChannel } from '../../../domain/channels.js';

export const CAP_MAX_WINDOW_SECONDS = 31 * 86_400;

export class SetCapDto {
  /** A channel, or "*" (default) for all channels together. */
  @ApiProperty({ required: false, enum: ['*', ...CHANNELS], example: 'email' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && value !== '*' ? normaliseChannel(value) : value))
  @IsIn(['*', ...CHANNELS], { message: `channel must be "*" or one of ${CHANNELS.join(', ')}` })
  channel?: string;

  /**
   * A topic (1–64 of a-z 0-9 - _ . :), or "*" (default) for every message whatever its topic.
   * @example "*"
   */
  @IsOptional()
  @IsText({
    pattern: /^(\*|[a-z0-9\-_.:]{1,64})$/,
    message: 'topic must be "*" or 1–64 characters of a-z, 0-9, -, _, . and :',
  })
  topic?: string;

  /**
   * At most this many messages per subscriber within the window (1–100 000).
   * @example 3
   */
  @IsInt({ message: 'max_messages must be a whole number' })
  @Min(1)
  @Max(100_000)
  max_messages: number;

  /**
   * The sliding window, in seconds (60 s to 31 days).
   * @example 86400
   */
  @IsInt({ message: 'window_seconds must be a whole number of seconds' })
  @Min(60, { message: 'window_seconds must be at least 60' })
  @Max(CAP_MAX_WINDOW_SECONDS, { message: `window_seconds must be at most ${CAP_MAX_WINDOW_SECONDS} (31 days)` })
  window_seconds: number;
}

export class CapDto {
  /** @example "0d9c2f5e-8a4b-4c1d-9e2f-3a4b5c6d7e8f" */
  id: string;
  /** @example "email" */
  channel: string;
  /** @example "*" */
  topic: string;
  /** @example 3 */
  max_messages: number;
  /** @example 86400 */
  window_seconds: number;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  updated_at: string;
}

export class CapListDto {
  data: CapDto[];
}

export class SetCapResponseDto {
  /** @example true */
  success: boolean;
  /**
   * false when an existing cap of this channel and topic was replaced.
   * @example true
   */
  created: boolean;
  cap: CapDto;
}

export class DeleteCapResponseDto {
  /** @example true */
  success: boolean;
  /** @example "0d9c2f5e-8a4b-4c1d-9e2f-3a4b5c6d7e8f" */
  id: string;
}

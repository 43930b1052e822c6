import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { WINDOW_APPLIES_TO } from '../send-window.js';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A project's send window (quiet hours are its complement), read in each recipient's zone. */
export class SendWindowDto {
  /**
   * Opening time, 24-hour local time.
   * @example "08:00"
   */
  @IsString()
  @Matches(HH_MM, { message: 'start must be a 24-hour time "HH:MM", e.g. "08:00"' })
  start: string;

  /**
   * Closing time (exclusive); earlier than start makes an overnight window.
   * @example "21:00"
   */
  @IsString()
  @Matches(HH_MM, { message: 'end must be a 24-hour time "HH:MM", e.g. "21:00"' })
  end: string;

  /**
   * IANA zone for recipients without a valid subscriber time zone; default UTC.
   * @example "Europe/Paris"
   */
  @IsOptional()
  @IsString()
  tz?: string;

  /**
   * ISO weekdays the window opens on, 1 = Monday … 7 = Sunday; default every day.
   * @example [1, 2, 3, 4, 5]
   */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(7)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(7, { each: true })
  days?: number[];

  /** marketing (default): bulk priority or campaign-tagged jobs only; all: every job. */
  @ApiProperty({ required: false, enum: WINDOW_APPLIES_TO, example: 'marketing' })
  @IsOptional()
  @IsIn(WINDOW_APPLIES_TO)
  applies_to?: 'marketing' | 'all';
}

export class SendWindowResponseDto {
  /** The project's window with defaults filled in; null when the project sends at any time. */
  @ApiProperty({ type: SendWindowDto, nullable: true })
  send_window: SendWindowDto | null;
}

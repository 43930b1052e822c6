import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';

export class LaneQuotaDto {
  /**
   * Calls (or messages) left in the provider's current window, from its last quota headers.
   * @example 42
   */
  remaining: number | null;
  /** @example 100 */
  limit: number | null;
  /** @example "2026-11-30T10:00:10.000Z" */
  reset_at: string | null;
}

export class LaneTotalsDto {
  /** Provider calls paced on this lane since it was created (all replicas). @example 1520 */
  calls: number;
  /** Tokens spent (calls, or messages where the provider meters messages). @example 1520 */
  tokens: number;
  /** Times the lane was paused. @example 2 */
  pauses: number;
  /** Milliseconds calls waited for their slot, summed. @example 73400 */
  waited_ms: number;
}

export class LaneDto {
  /**
   * The lane's id: channel:provider, or channel:provider:project for a project with its own credentials.
   * @example "email:resend"
   */
  lane: string;
  /** @example "email" */
  channel: string;
  /** @example "resend" */
  provider: string;
  /** @example null */
  project_id: string | null;
  /**
   * True when the channel sends through this provider now (a lane of a former provider is kept for its history).
   * @example true
   */
  active: boolean;
  /**
   * Configured tokens per second, shared by every replica (0 = unpaced).
   * @example 8
   */
  rate: number;
  /**
   * False when the lane is unpaced (rate 0): notifyd calls the provider as fast as it answers.
   * @example true
   */
  paced: boolean;
  /**
   * The rate in force, in words: "8/s", or "unpaced" (never a bare 0, which reads as "stopped").
   * @example "8/s"
   */
  rate_text: string;
  /** Tokens an idle lane may spend at once. @example 8 */
  burst: number;
  /**
   * Rate in force now: the configured one, or lower while the provider's quota headers ask for it.
   * @example 8
   */
  effective_rate: number;
  /** Tokens available right now (null when unpaced). @example 8 */
  tokens: number | null;
  /** Rate set by the provider's quota headers, in force until adaptive_until. @example null */
  adaptive_rate: number | null;
  /** @example null */
  adaptive_until: string | null;
  /** True while no replica claims or calls this lane. @example false */
  paused: boolean;
  /** @example null */
  paused_until: string | null;
  /**
   * Why: rate_limited (a 429), quota_exhausted (daily/monthly cap), quota_headers (window spent), operator.
   * @example null
   */
  pause_kind: string | null;
  /** @example null */
  pause_reason: string | null;
  /** @example null */
  paused_at: string | null;
  quota: LaneQuotaDto;
  totals: LaneTotalsDto;
}

export class LaneListDto {
  lanes: LaneDto[];
}

export class PauseLaneRequestDto {
  /**
   * How long to pause, in seconds (default 3600, at most 30 days). The pause ends by itself; resume earlier with POST …/resume.
   * @example 600
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(30 * 86_400)
  duration_secs?: number;

  /**
   * Why, for the other operators (shown in the lane state and the digest).
   * @example "provider incident, waiting for their status page"
   */
  @IsOptional()
  @IsText({ min: 1, max: 300 })
  reason?: string;
}

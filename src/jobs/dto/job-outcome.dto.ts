import { IsOptional } from 'class-validator';
import { IsWaitDuration } from '../wait/is-wait-duration.validator.js';

/** A job's state as a `wait` answer reports it. */
export class JobOutcomeDto {
  /** @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  id: string;
  /** @example "email" */
  channel: string;
  /**
   * pending, processing, retry, sent, failed, cancelled or bounced.
   * @example "sent"
   */
  status: string;
  /**
   * true when the job will not change on its own any more (sent, failed, cancelled, bounced).
   * @example true
   */
  final: boolean;
  /** @example 1 */
  attempts: number;
  /** @example "resend" */
  provider: string | null;
  /**
   * The provider's id for the message: its answer, when it accepted it.
   * @example "4ef9a417-02e9-4d39-ad75-9611e0fcc33c"
   */
  provider_message_id: string | null;
  /**
   * What the provider (or notifyd) said when the attempt failed.
   * @example null
   */
  error: string | null;
  /** @example "2026-11-30T10:00:01.000Z" */
  sent_at: string | null;
  /**
   * When a job in `retry` is tried again.
   * @example null
   */
  next_retry_at: string | null;
}

export class WaitQueryDto {
  /**
   * Hold the answer until the job is final (sent, failed, cancelled or bounced) or this much
   * time has passed, at most 30s. Without it the job is returned at once.
   * @example "10s"
   */
  @IsOptional()
  @IsWaitDuration()
  wait?: string;
}

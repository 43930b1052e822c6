/** GET /v1/metrics: notifyd 0.x's JSON figures, across all projects, counted when asked. */
export class MetricsSummaryDto {
  /**
   * Jobs waiting for their first attempt.
   * @example 12
   */
  jobs_pending: number;
  /**
   * Jobs waiting for a retry after a transient failure (0.x counted them as pending; they are apart here).
   * @example 1
   */
  jobs_retry: number;
  /**
   * Jobs a worker holds now.
   * @example 3
   */
  jobs_processing: number;
  /**
   * Jobs a provider accepted in the last 24 hours (those closed without a provider call, e.g. opted out, excluded).
   * @example 4210
   */
  jobs_sent_24h: number;
  /**
   * Jobs that failed for good in the last 24 hours.
   * @example 7
   */
  jobs_failed_24h: number;
  /** @example 1820 */
  subscribers_total: number;
  /** @example 9051 */
  inbox_messages_total: number;
  /**
   * Workflow runs not finished: pending, processing or waiting (a delay, a digest window).
   * @example 42
   */
  active_workflow_runs: number;
  /**
   * Seconds since this process started.
   * @example 3600
   */
  uptime_seconds: number;
}

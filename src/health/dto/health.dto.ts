export class WorkersHealthDto {
  /**
   * Worker processes (NOTIFYD_ROLE=worker or all) whose heartbeat is younger than alive_within_seconds.
   * @example 2
   */
  alive: number;
  /**
   * The newest heartbeat of any worker process (kept a week); null when none ever beat.
   * @example "2026-11-30T06:00:12.000Z"
   */
  last_beat_at: string | null;
  /**
   * A pending or retrying job is due now and waits for a worker to claim it.
   * @example false
   */
  due_jobs_waiting: boolean;
  /** @example 60 */
  alive_within_seconds: number;
}

export class HealthDto {
  /**
   * ok, or degraded when the database does not answer or when no worker is alive while due
   * jobs wait (`reason` says which). Always HTTP 200: this is liveness, and restarting this
   * process fixes neither; alert on `degraded`.
   * @example "ok"
   */
  status: 'ok' | 'degraded';
  /** @example "ok" */
  db: 'ok' | 'error';
  /** @example "0.1.0" */
  version: string;
  /**
   * The git commit this build was made from (`npm run build` records it; a Docker build takes
   * the NOTIFYD_COMMIT build argument); "unknown" when neither was available.
   * @example "14fce17c0a3b5e2d9f8a7b6c5d4e3f2a1b0c9d8e"
   */
  commit: string;
  /**
   * When the build ran, in epoch seconds (NOTIFYD_BUILT_AT overrides it); null when unknown.
   * @example 1764646800
   */
  built_at_epoch: number | null;
  /**
   * all, api or worker (NOTIFYD_ROLE).
   * @example "all"
   */
  role: string;
  /** @example 3600 */
  uptime_seconds: number;
  /** The worker heartbeats; null while the database does not answer. */
  workers: WorkersHealthDto | null;
  /**
   * Why the status is degraded and what fixes it; null when ok.
   * @example null
   */
  reason: string | null;
}

export class ReadinessDto {
  /** @example true */
  ready: boolean;
  /** @example "ok" */
  db: 'ok' | 'error';
  /**
   * Migrations this build knows that the database has not applied.
   * @example []
   */
  pending_migrations: string[];
  /**
   * Why the instance is not ready, when it is not.
   * @example null
   */
  reason: string | null;
}

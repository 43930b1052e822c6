export class HealthDto {
  /**
   * ok, or degraded when the database does not answer.
   * @example "ok"
   */
  status: 'ok' | 'degraded';
  /** @example "ok" */
  db: 'ok' | 'error';
  /** @example "0.1.0" */
  version: string;
  /**
   * all, api or worker (NOTIFYD_ROLE).
   * @example "all"
   */
  role: string;
  /** @example 3600 */
  uptime_seconds: number;
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

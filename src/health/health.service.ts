import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { BUILD_INFO } from '../common/build-info.js';
import { VERSION } from '../common/version.js';
import { pendingMigrations } from '../database/migration-runner.js';
import { ALIVE_WITHIN_SECONDS } from '../jobs/heartbeat/worker-heartbeat.service.js';
import { WorkerHeartbeats } from '../jobs/heartbeat/worker-heartbeats.js';
import type { HealthDto, ReadinessDto, WorkersHealthDto } from './dto/health.dto.js';

const started = Date.now();
/** A health probe must answer fast even when the database hangs. */
const PROBE_TIMEOUT_MS = 2_000;

@Injectable()
export class HealthService {
  private migrationsCurrent = false;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly heartbeats: WorkerHeartbeats,
  ) {}

  /**
   * Liveness, always answered with 200 (an orchestrator restarts what fails it): `degraded`
   * when the database does not answer, or when no worker process is alive while due jobs wait.
   * The second is not this process's fault: an api replica restarted for it would change
   * nothing, so it is a status and a reason to act on, never a failed probe.
   */
  async health(): Promise<HealthDto> {
    const db = await this.ping();
    const workers = db ? await this.workers() : null;
    const reasons: string[] = [];
    if (!db) reasons.push('The database does not answer.');
    if (workers && workers.alive === 0 && workers.due_jobs_waiting) {
      reasons.push(
        `No worker process has beaten ${workers.last_beat_at ? `since ${workers.last_beat_at}` : 'yet'} while due jobs wait: ` +
          'nothing is being sent. Start a replica with NOTIFYD_ROLE=worker (or all) against this database.',
      );
    }
    return {
      status: reasons.length ? 'degraded' : 'ok',
      db: db ? 'ok' : 'error',
      version: VERSION,
      commit: BUILD_INFO.commit,
      built_at_epoch: BUILD_INFO.built_at_epoch,
      role: this.config.server.role,
      uptime_seconds: Math.round((Date.now() - started) / 1000),
      workers,
      reason: reasons.length ? reasons.join(' ') : null,
    };
  }

  /** Ready = the database answers and every migration this build knows is applied. */
  async readiness(): Promise<ReadinessDto> {
    if (!(await this.ping())) {
      return { ready: false, db: 'error', pending_migrations: [], reason: 'The database does not answer.' };
    }
    // Once current, the schema cannot fall behind this build again: skip the lookup.
    const pending = this.migrationsCurrent ? [] : await pendingMigrations(this.dataSource).catch(() => ['(unknown)']);
    this.migrationsCurrent = pending.length === 0;
    return {
      ready: pending.length === 0,
      db: 'ok',
      pending_migrations: pending,
      reason: pending.length ? `Migrations pending: run \`notifyd migrate\`.` : null,
    };
  }

  /** The worker heartbeats; null when they cannot be read (the ping passed, the read did not). */
  private async workers(): Promise<WorkersHealthDto | null> {
    try {
      const w = await withTimeout(this.heartbeats.liveness());
      return {
        alive: w.alive,
        last_beat_at: w.lastBeatAt?.toISOString() ?? null,
        due_jobs_waiting: w.dueWaiting,
        alive_within_seconds: ALIVE_WITHIN_SECONDS,
      };
    } catch {
      return null;
    }
  }

  private async ping(): Promise<boolean> {
    try {
      await withTimeout(this.dataSource.query('SELECT 1'));
      return true;
    } catch {
      return false;
    }
  }
}

/** The probe's answer or a rejection after PROBE_TIMEOUT_MS, whichever comes first. */
async function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

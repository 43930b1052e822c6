import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { VERSION } from '../common/version.js';
import { pendingMigrations } from '../database/migration-runner.js';
import type { HealthDto, ReadinessDto } from './dto/health.dto.js';

const started = Date.now();
/** A health probe must answer fast even when the database hangs. */
const PROBE_TIMEOUT_MS = 2_000;

@Injectable()
export class HealthService {
  private migrationsCurrent = false;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async health(): Promise<HealthDto> {
    const db = await this.ping();
    return {
      status: db ? 'ok' : 'degraded',
      db: db ? 'ok' : 'error',
      version: VERSION,
      role: this.config.server.role,
      uptime_seconds: Math.round((Date.now() - started) / 1000),
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

  private async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
      });
      await Promise.race([this.dataSource.query('SELECT 1'), timeout]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { VERSION } from '../../common/version.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { Db } from '../../database/db.js';
import * as sql from './heartbeat.sql.js';

/** How often a worker process beats. Four beats fit in ALIVE_WITHIN_SECONDS, so one slow or lost beat never reads as dead. */
export const HEARTBEAT_INTERVAL_MS = 15_000;
/** A process whose last beat is older than this is not alive (the digest and /v1/health say so). */
export const ALIVE_WITHIN_SECONDS = 60;
/** Rows of processes that stopped beating are deleted this long after their last beat. */
export const HEARTBEAT_KEEP_DAYS = 7;

/**
 * The worker process's heartbeat: a row in worker_heartbeats upserted every 15 s by a timer
 * of its own, off the send path (one small statement; the claim loop never waits on it), and
 * marked stopped on a graceful shutdown. Only processes that run the worker beat
 * (NOTIFYD_ROLE=worker or all). A beat that fails (database away) is logged and the next one
 * tries again; it never stops the process.
 */
@Injectable()
export class WorkerHeartbeat implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WorkerHeartbeat');
  /** This process in worker_heartbeats. */
  readonly id = randomUUID();
  private readonly startedAt = new Date();
  private timer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Db,
  ) {}

  /** The first beat is awaited: a worker replica is visible as alive once it has booted. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.server.role === 'api') return;
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_INTERVAL_MS);
    this.timer.unref();
    await this.beat();
  }

  /** One beat now; resolves false (logged once per failure streak) when the database refused it. */
  async beat(): Promise<boolean> {
    try {
      await this.db.exec(sql.BEAT, [
        this.id,
        this.config.server.role,
        hostname(),
        process.pid,
        VERSION,
        this.startedAt.toISOString(),
        HEARTBEAT_KEEP_DAYS,
      ]);
      if (this.failing) this.logger.log('heartbeat recorded again');
      this.failing = false;
      return true;
    } catch (err) {
      if (!this.failing)
        this.logger.warn(
          `heartbeat not recorded (${(err as Error).message}); the digest will report no live worker if this lasts ${ALIVE_WITHIN_SECONDS} s`,
        );
      this.failing = true;
      return false;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.db.exec(sql.STOPPED, [this.id]).catch(() => undefined);
  }
}

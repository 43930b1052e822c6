import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { hostname } from 'node:os';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Db } from '../database/db.js';
import * as sql from './sql/periodic.sql.js';

export interface PeriodicTaskOptions {
  /** Run on the first tick after the task is first seen (default) or wait one interval. */
  runFirstTick?: boolean;
}

export interface PeriodicRun {
  task: string;
  last_run_at: Date;
  run_by: string;
  runs: number;
  last_ok: boolean | null;
  last_error: string | null;
  finished_at: Date | null;
}

/** The name a periodic task's interval has in Nest's SchedulerRegistry. */
export const schedulerName = (task: string) => `periodic:${task}`;

/**
 * Periodic work that must happen once per tick across every replica (reaper, retention,
 * digest rollup and notifications, metrics gauges, webhook, workflow and inbox maintenance).
 * Each task is a Nest scheduled task: an interval registered at boot in @nestjs/schedule's
 * SchedulerRegistry (`periodic:<task>`), dynamic because its period comes from the
 * configuration. On each beat the replica tries to claim the task's tick in periodic_runs (one
 * conditional UPDATE); the winner runs the task, the others do nothing until the next tick is
 * due. A replica that dies mid-run loses that tick (the next one comes an interval later),
 * which periodic work tolerates by design.
 */
@Injectable()
export class PeriodicTasks implements OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Periodic');
  private readonly names = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  private closing = false;
  private drained: Promise<void> | undefined;
  /** This replica's name in periodic_runs.run_by. */
  readonly replica = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

  constructor(
    private readonly db: Db,
    private readonly scheduler: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Runs `task` once per `intervalMs` across all replicas. The replica checks every
   * min(interval / 5, 30 s) (at least every second), so a tick starts at most that late.
   * Ignored once shutdown has begun.
   */
  every(name: string, intervalMs: number, task: () => Promise<unknown>, options: PeriodicTaskOptions = {}): void {
    if (this.closing) return;
    if (this.names.has(name)) throw new Error(`periodic task ${name} registered twice`);
    const beatMs = Math.max(1_000, Math.min(intervalMs / 5, 30_000));
    const beat = () => {
      // One run of a task at a time in this replica; none once shutdown has begun.
      if (this.closing || this.running.has(name)) return;
      const run = this.runIfDue(name, intervalMs, task, options)
        .then(() => undefined)
        .catch((err) => this.logger.warn(`${name} failed: ${(err as Error).message}`))
        .finally(() => this.running.delete(name));
      this.running.set(name, run);
    };
    const timer = setInterval(beat, beatMs);
    // The process ends when its work is done, not when a timer says so.
    timer.unref();
    this.scheduler.addInterval(schedulerName(name), timer);
    this.names.add(name);
    setImmediate(beat);
  }

  /** Claims the tick and runs the task when due; returns whether this replica ran it. */
  async runIfDue(
    name: string,
    intervalMs: number,
    task: () => Promise<unknown>,
    options: PeriodicTaskOptions = {},
  ): Promise<boolean> {
    const won = await this.db.one<{ run: boolean }>(sql.CLAIM_TICK, [
      name,
      intervalMs,
      this.replica,
      options.runFirstTick ?? true,
    ]);
    if (!won?.run) return false;
    try {
      await task();
      await this.db.exec(sql.FINISH_TICK, [name, this.replica, true, null]);
    } catch (err) {
      await this.db
        .exec(sql.FINISH_TICK, [name, this.replica, false, (err as Error).message.slice(0, 500)])
        .catch(() => undefined);
      throw err;
    }
    return true;
  }

  runs(): Promise<PeriodicRun[]> {
    return this.db.rows<PeriodicRun>(sql.LIST_RUNS);
  }

  /** Removes this replica's intervals from the registry (a test taking a task over by hand). */
  stop(name?: string): void {
    for (const task of this.names) {
      if (name && task !== name) continue;
      if (this.scheduler.doesExist('interval', schedulerName(task))) this.scheduler.deleteInterval(schedulerName(task));
      this.names.delete(task);
    }
  }

  /**
   * Shutdown begins: no tick starts from now on, and the intervals leave the registry.
   * main.ts calls it first thing in close(), before any module shuts down; the destroy hook
   * covers a bare app.close().
   */
  halt(): void {
    this.closing = true;
    this.stop();
  }

  onModuleDestroy(): void {
    this.halt();
  }

  /**
   * The ticks still running are awaited for at most SHUTDOWN_GRACE_SECS, after the worker's
   * own drain (a global module's hooks run last) and before the pools close. A tick left
   * running then fails on the closed pool; the replica that claims the next tick does the work.
   */
  beforeApplicationShutdown(): Promise<void> {
    this.halt();
    return (this.drained ??= this.waitForRunning());
  }

  private async waitForRunning(): Promise<void> {
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), this.config.server.shutdownGraceMs)),
    );
    const outcome = await Promise.race([Promise.all(this.running.values()), timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout')
      this.logger.warn(
        `shutdown: periodic task(s) still running after the grace period: ${[...this.running.keys()].join(', ')}`,
      );
  }
}

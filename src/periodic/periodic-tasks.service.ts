import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { hostname } from 'node:os';
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

/**
 * Periodic work that must happen once per tick across every replica (reaper, retention,
 * digest notifications, metrics gauges). Every replica keeps a timer; on each beat it tries to
 * claim the task's tick in periodic_runs (one conditional UPDATE). The winner runs the task;
 * the others do nothing until the next tick is due. A replica that dies mid-run loses that
 * tick (the next one comes an interval later), which periodic work tolerates by design.
 */
@Injectable()
export class PeriodicTasks implements OnApplicationShutdown {
  private readonly logger = new Logger('Periodic');
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** This replica's name in periodic_runs.run_by. */
  readonly replica = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

  constructor(private readonly db: Db) {}

  /**
   * Runs `task` once per `intervalMs` across all replicas. The replica checks every
   * min(interval / 5, 30 s) (at least every second), so a tick starts at most that late.
   */
  every(name: string, intervalMs: number, task: () => Promise<unknown>, options: PeriodicTaskOptions = {}): void {
    if (this.timers.has(name)) throw new Error(`periodic task ${name} registered twice`);
    const beatMs = Math.max(1_000, Math.min(intervalMs / 5, 30_000));
    let running = false;
    const beat = () => {
      if (running) return;
      running = true;
      this.runIfDue(name, intervalMs, task, options)
        .catch((err) => this.logger.warn(`${name} failed: ${(err as Error).message}`))
        .finally(() => (running = false));
    };
    const timer = setInterval(beat, beatMs);
    timer.unref();
    this.timers.set(name, timer);
    setImmediate(beat);
  }

  /** Claims the tick and runs the task when due; returns whether this replica ran it. */
  async runIfDue(name: string, intervalMs: number, task: () => Promise<unknown>, options: PeriodicTaskOptions = {}): Promise<boolean> {
    const won = await this.db.one<{ run: boolean }>(sql.CLAIM_TICK, [name, intervalMs, this.replica, options.runFirstTick ?? true]);
    if (!won?.run) return false;
    try {
      await task();
      await this.db.exec(sql.FINISH_TICK, [name, this.replica, true, null]);
    } catch (err) {
      await this.db.exec(sql.FINISH_TICK, [name, this.replica, false, (err as Error).message.slice(0, 500)]).catch(() => undefined);
      throw err;
    }
    return true;
  }

  runs(): Promise<PeriodicRun[]> {
    return this.db.rows<PeriodicRun>(sql.LIST_RUNS);
  }

  /** Stops this replica's timers (shutdown, or a test taking over by hand). */
  stop(name?: string): void {
    for (const [task, timer] of this.timers) {
      if (name && task !== name) continue;
      clearInterval(timer);
      this.timers.delete(task);
    }
  }

  onApplicationShutdown(): void {
    this.stop();
  }
}

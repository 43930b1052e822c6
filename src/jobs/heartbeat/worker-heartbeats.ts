import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.js';
import * as sql from './heartbeat.sql.js';
import { ALIVE_WITHIN_SECONDS } from './worker-heartbeat.service.js';

/** Whether any worker is alive, and whether that matters now. */
export interface WorkerLiveness {
  /** Worker processes that beat within the last ALIVE_WITHIN_SECONDS and did not stop. */
  alive: number;
  /** The newest beat of any worker process (kept a week); null when none ever beat. */
  lastBeatAt: Date | null;
  /** A pending or retry job is due (run_at passed): someone should be claiming it. */
  dueWaiting: boolean;
}

/** One worker process as its heartbeat row says. */
export interface WorkerProcess {
  id: string;
  role: string;
  host: string;
  pid: number;
  version: string;
  startedAt: Date;
  lastBeat: Date;
  stoppedAt: Date | null;
  alive: boolean;
}

/** Reads the worker heartbeats for the digest, /v1/health and the metrics (any role). */
@Injectable()
export class WorkerHeartbeats {
  constructor(private readonly db: Db) {}

  async liveness(): Promise<WorkerLiveness> {
    const row = await this.db.one<{ alive: number; last_beat_at: Date | null; due_waiting: boolean }>(sql.LIVENESS, [
      ALIVE_WITHIN_SECONDS,
    ]);
    return {
      alive: row?.alive ?? 0,
      lastBeatAt: row?.last_beat_at ? new Date(row.last_beat_at) : null,
      dueWaiting: row?.due_waiting ?? false,
    };
  }

  /** How many worker processes are alive, and the known ones, newest beat first (at most `limit`). */
  async processes(limit = 20): Promise<{ alive: number; lastBeatAt: Date | null; processes: WorkerProcess[] }> {
    const rows = await this.db.rows<{
      id: string;
      role: string;
      host: string;
      pid: number;
      version: string;
      started_at: Date;
      last_beat: Date;
      stopped_at: Date | null;
      alive: boolean;
      alive_total: number;
    }>(sql.PROCESSES, [ALIVE_WITHIN_SECONDS, limit]);
    const processes = rows.map((r) => ({
      id: r.id,
      role: r.role,
      host: r.host,
      pid: r.pid,
      version: r.version,
      startedAt: new Date(r.started_at),
      lastBeat: new Date(r.last_beat),
      stoppedAt: r.stopped_at ? new Date(r.stopped_at) : null,
      alive: r.alive,
    }));
    return { alive: rows[0]?.alive_total ?? 0, lastBeatAt: processes[0]?.lastBeat ?? null, processes };
  }
}

import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import type { Lane } from '../domain/lane.js';
import * as sql from './sql/pacing.sql.js';

export type PauseKind = 'rate_limited' | 'quota_exhausted' | 'quota_headers' | 'operator';

export interface TakeResult {
  granted: boolean;
  /** Effective rate (configured, lowered by an adaptive rate). */
  rate: number;
  /** Granted: until the reserved slot. Refused: until worth asking again (or the pause ends). */
  waitMs: number;
  pausedUntil: Date | null;
  pauseKind: PauseKind | null;
  pauseReason: string | null;
}

export interface ActivePause {
  laneKey: string;
  channel: string;
  provider: string;
  projectId: string | null;
  remainingMs: number;
  kind: PauseKind;
  reason: string | null;
}

export interface LaneRow {
  laneKey: string;
  channel: string;
  provider: string;
  projectId: string | null;
  rate: number;
  burstSecs: number;
  adaptiveRate: number | null;
  adaptiveUntil: Date | null;
  tokens: number | null;
  pausedUntil: Date | null;
  pauseKind: PauseKind | null;
  pauseReason: string | null;
  pausedAt: Date | null;
  quotaRemaining: number | null;
  quotaLimit: number | null;
  quotaResetAt: Date | null;
  pausesTotal: number;
  callsTotal: number;
  tokensTotal: number;
  waitedMsTotal: number;
  updatedAt: Date;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** All pacing SQL (src/pacing/sql/pacing.sql.ts), one statement per call. */
@Injectable()
export class PacingRepository {
  /** Round trips made, for bench/pacing (the database cost of pacing). */
  roundTrips = 0;

  constructor(private readonly db: Db) {}

  async ensureLane(key: string, lane: Lane): Promise<void> {
    this.roundTrips++;
    await this.db.exec(sql.ENSURE_LANE, [key, lane.channel, lane.provider, lane.projectId ?? null]);
  }

  async take(
    key: string,
    rate: number,
    burstSecs: number,
    cost: number,
    horizonSecs: number,
  ): Promise<TakeResult | undefined> {
    this.roundTrips++;
    const row = await this.db.one<Record<string, unknown>>(sql.TAKE_TOKENS, [key, rate, burstSecs, cost, horizonSecs]);
    if (!row) return undefined;
    return {
      granted: row.granted === true,
      rate: Number(row.rate),
      waitMs: Math.max(0, Number(row.wait_ms)),
      pausedUntil: (row.paused_until as Date | null) ?? null,
      pauseKind: (row.pause_kind as PauseKind | null) ?? null,
      pauseReason: (row.pause_reason as string | null) ?? null,
    };
  }

  async pause(
    key: string,
    lane: Lane,
    seconds: number,
    kind: PauseKind,
    reason: string,
  ): Promise<{ until: Date; kind: PauseKind; reason: string }> {
    this.roundTrips++;
    const row = await this.db.one<{ paused_until: Date; pause_kind: PauseKind; pause_reason: string }>(sql.PAUSE_LANE, [
      key,
      lane.channel,
      lane.provider,
      lane.projectId ?? null,
      seconds,
      kind,
      reason,
    ]);
    return { until: row!.paused_until, kind: row!.pause_kind, reason: row!.pause_reason };
  }

  async resume(key: string): Promise<boolean> {
    this.roundTrips++;
    return (await this.db.rows(sql.RESUME_LANE, [key])).length > 0;
  }

  async setAdaptive(
    key: string,
    adaptive: { rate: number; seconds: number } | null,
    quota: { remaining?: number; limit?: number; resetSecs?: number },
  ): Promise<void> {
    this.roundTrips++;
    await this.db.exec(sql.SET_ADAPTIVE, [
      key,
      adaptive?.rate ?? null,
      adaptive?.seconds ?? null,
      quota.remaining ?? null,
      quota.limit ?? null,
      quota.resetSecs ?? null,
    ]);
  }

  async activePauses(): Promise<ActivePause[]> {
    this.roundTrips++;
    const rows = await this.db.rows<ActivePause>(sql.ACTIVE_PAUSES);
    return rows.map((r) => ({ ...r, remainingMs: Number(r.remainingMs) }));
  }

  async laneStates(): Promise<LaneRow[]> {
    const rows = await this.db.rows<LaneRow>(sql.LANE_STATES);
    return rows.map((r) => ({
      ...r,
      rate: Number(r.rate),
      burstSecs: Number(r.burstSecs),
      adaptiveRate: num(r.adaptiveRate),
      tokens: num(r.tokens),
      quotaRemaining: num(r.quotaRemaining),
      quotaLimit: num(r.quotaLimit),
      pausesTotal: Number(r.pausesTotal),
      callsTotal: Number(r.callsTotal),
      tokensTotal: Number(r.tokensTotal),
      waitedMsTotal: Number(r.waitedMsTotal),
    }));
  }
}

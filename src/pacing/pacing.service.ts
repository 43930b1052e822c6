import { Injectable } from '@nestjs/common';
import { type Lane, laneKey } from './lane.js';

export interface LanePause {
  until: Date;
  reason: string;
}

/**
 * Pacing and lane pauses. This first version keeps pauses in process memory and does not
 * meter; the pacing issue replaces both with state shared in PostgreSQL so that every
 * replica honours one quota.
 */
@Injectable()
export class PacingService {
  private readonly pauses = new Map<string, LanePause & { lane: Lane }>();

  /** Waits until `cost` tokens of the lane's budget are available. */
  async acquire(_lane: Lane, _cost: number): Promise<void> {
    // Unmetered until the shared token bucket lands.
  }

  /** Pauses a lane until `until`; a longer pause already in place is never shortened. */
  async pause(lane: Lane, until: Date, reason: string): Promise<LanePause> {
    const key = laneKey(lane);
    const current = this.pauses.get(key);
    if (current && current.until >= until) return current;
    const pause = { lane, until, reason };
    this.pauses.set(key, pause);
    return pause;
  }

  async resume(lane: Lane): Promise<void> {
    this.pauses.delete(laneKey(lane));
  }

  /** The pause in force on a lane now, if any. */
  pausedUntil(lane: Lane): LanePause | undefined {
    const pause = this.pauses.get(laneKey(lane));
    if (!pause) return undefined;
    if (pause.until.getTime() <= Date.now()) {
      this.pauses.delete(laneKey(lane));
      return undefined;
    }
    return pause;
  }

  /** Channels with a paused lane, for the claim to skip. */
  pausedChannels(): string[] {
    const now = Date.now();
    return [...this.pauses.values()].filter((p) => p.until.getTime() > now).map((p) => p.lane.channel);
  }
}

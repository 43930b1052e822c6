import type { Channel } from '../config/sections/connectors.config.js';

/**
 * A lane is what a provider meters: one channel through one provider. Pacing, pauses after
 * a 429 and the failover breaker all work per lane.
 */
export interface Lane {
  channel: Channel;
  provider: string;
}

export const laneKey = (lane: Lane): string => `${lane.channel}:${lane.provider}`;

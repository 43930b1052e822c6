import type { Channel } from './channels.js';

/**
 * A lane is what a provider meters: one channel through one provider, and one project where
 * the project sends with its own provider credentials (its own quota). Pacing, pauses after a
 * 429 and quota pauses all work per lane, shared by every replica.
 */
export interface Lane {
  channel: Channel;
  provider: string;
  /** Set when the project has its own credentials for this provider; absent = the instance's lane. */
  projectId?: string;
}

/** The lane's stable id, stored in pacing_lanes.lane_key: `email:resend` or `email:resend:acme`. */
export const laneKey = (lane: Lane): string =>
  lane.projectId ? `${lane.channel}:${lane.provider}:${lane.projectId}` : `${lane.channel}:${lane.provider}`;

import type { JobRow } from '../../domain/job.types.js';
import type { LaneState } from '../../pacing/lane-state.service.js';

/** What holds a waiting job (the MCP tools' `waiting` and the recipient trace). */
export type JobWaiting = {
  holds: 'lane_paused' | 'scheduled' | 'retry' | 'deferred' | 'due';
  until: string | null;
  reason: string;
  lane: string | null;
} | null;

const WAITING_STATUSES = new Set(['pending', 'retry']);

/**
 * What holds a pending or retry job, and until when: its lane's pause (which outlasts anything
 * else: no job of the lane is claimed), else the time it is due at (run_at) read against why it
 * moved there (a retry after an error, a deferral, its scheduled time), else nothing: it is
 * due and waits for a worker. Null for a job that is not waiting.
 */
export function waitingReason(job: JobRow, lanes: readonly LaneState[], now = new Date()): JobWaiting {
  if (!WAITING_STATUSES.has(job.status)) return null;
  // A project's own lane first, then the channel's active lane (a job not yet tried has no provider).
  const lane =
    lanes.find(
      (l) => l.channel === job.channel && l.projectId === job.projectId && l.pausedUntil && l.pausedUntil > now,
    ) ??
    lanes.find(
      (l) =>
        l.channel === job.channel &&
        l.projectId === null &&
        (l.active || l.provider === job.provider) &&
        l.pausedUntil &&
        l.pausedUntil > now,
    );
  if (lane) {
    const by =
      lane.pauseKind === 'operator'
        ? `an operator (${lane.pauseReason ?? 'no reason given'})`
        : `${lane.provider} (${lane.pauseKind}: ${lane.pauseReason ?? 'no reason given'})`;
    return {
      holds: 'lane_paused',
      until: lane.pausedUntil!.toISOString(),
      lane: lane.laneKey,
      reason: `Lane ${lane.laneKey} is paused until ${lane.pausedUntil!.toISOString()} by ${by}; no job of the lane is sent before then and none uses an attempt. An operator may lift it with resume_lane {"lane":"${lane.laneKey}"}.`,
    };
  }
  const due = job.runAt;
  if (due <= now) {
    return {
      holds: 'due',
      until: null,
      lane: null,
      reason: 'Due now: it waits for a worker to claim it (if it stays, check workers.alive in the digest).',
    };
  }
  const at = due.toISOString();
  if (job.status === 'retry') {
    return {
      holds: 'retry',
      until: at,
      lane: null,
      reason: `Retry at ${at} (attempt ${job.attempts + 1} of ${job.maxAttempts}) after: ${job.error ?? 'an error'}.`,
    };
  }
  if (job.error) {
    return { holds: 'deferred', until: at, lane: null, reason: `Put off until ${at}: ${job.error}.` };
  }
  return {
    holds: 'scheduled',
    until: at,
    lane: null,
    reason: `Scheduled for ${at} (the caller's scheduled_at, the recipient's send window, or its fair-share slot on a paced lane).`,
  };
}

import type { Channel } from '../../domain/channels.js';
import type { FairClocks } from './fair-clocks.js';

/** Fair-share slots are rounded down to this grid (jobs due together are claimed together). */
export const FAIR_GRID_MS = 250;

/**
 * The run_at of each job: its fair-share slot when it is due now on a paced lane (`stepSecs`
 * of lane time per message), undefined otherwise (scheduled sends keep their time; unpaced
 * lanes and in-app are not spaced). Moves the project's clocks by what the jobs take.
 * `nowMs` is on the database's clock, which the claim compares run_at with.
 */
export function fairSlots(
  clocks: FairClocks,
  projectId: string,
  priority: number,
  jobs: readonly { channel: Channel; scheduledAt: Date }[],
  stepSecs: (channel: Channel) => number,
  nowMs: number,
): (Date | undefined)[] {
  const perChannel = new Map<Channel, { step: number; count: number }>();
  const slot: number[] = jobs.map((job) => {
    const step = stepSecs(job.channel);
    if (step <= 0 || job.scheduledAt.getTime() > nowMs + 1_000) return -1;
    const entry = perChannel.get(job.channel) ?? { step, count: 0 };
    perChannel.set(job.channel, entry);
    return entry.count++;
  });
  if (perChannel.size === 0) return jobs.map(() => undefined);
  const starts = new Map<Channel, number>();
  for (const [channel, { step, count }] of perChannel) {
    const end = clocks.advance({ projectId, channel, priority }, step * count, nowMs);
    starts.set(channel, end - step * count * 1000);
  }
  return jobs.map((job, i) => {
    if (slot[i] < 0) return undefined;
    const step = perChannel.get(job.channel)!.step;
    // On a shared grid, so that jobs become due in batches (one claim, full provider
    // batches) rather than one by one; fairness is kept to within one grid step.
    return new Date(Math.floor((starts.get(job.channel)! + slot[i] * step * 1000) / FAIR_GRID_MS) * FAIR_GRID_MS);
  });
}

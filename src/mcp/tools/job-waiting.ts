import { z } from 'zod';

export const jobWaiting = z
  .object({
    holds: z
      .enum(['lane_paused', 'scheduled', 'retry', 'deferred', 'due'])
      .describe(
        'lane_paused: its lane is paused (a 429, a quota, an operator); scheduled: its time (scheduled_at or the send window) has not come; ' +
          'retry: waiting for its next attempt after a failure; deferred: put off by a rule (a cap, a send window checked at claim, a chat binding…); due: due now, waiting for a worker',
      ),
    until: z.string().nullable().describe('When it may go (RFC 3339); null when due now'),
    reason: z.string().describe('What holds it, in words, with the fix where one applies'),
    lane: z.string().nullable(),
  })
  .nullable();

export { waitingReason, type JobWaiting } from '../../jobs/timeline/waiting.js';

import { jobRow } from '../../../test/helpers/job-row.js';
import type { LaneState } from '../../pacing/lane-state.service.js';
import { waitingReason } from './waiting.js';

const now = new Date('2026-11-30T06:00:00.000Z');
const at = (iso: string) => new Date(iso);

function lane(patch: Partial<LaneState> = {}): LaneState {
  return {
    laneKey: 'email:resend',
    channel: 'email',
    provider: 'resend',
    projectId: null,
    active: true,
    rate: 0,
    burst: 0,
    effectiveRate: 0,
    tokens: null,
    adaptiveRate: null,
    adaptiveUntil: null,
    pausedUntil: null,
    pauseKind: null,
    pauseReason: null,
    pausedAt: null,
    quota: { remaining: null, limit: null, resetAt: null },
    totals: { calls: 0, tokens: 0, pauses: 0, waitedMs: 0 },
    ...patch,
  };
}

describe('what holds a waiting job, and until when', () => {
  it('its lane’s pause first, with the call that lifts it', () => {
    const paused = lane({
      pausedUntil: at('2026-11-30T06:20:00.000Z'),
      pauseKind: 'rate_limited',
      pauseReason: 'resend: 429',
    });
    const w = waitingReason(
      jobRow({ runAt: at('2026-11-30T06:20:00.000Z'), error: 'rate limited: 429' }),
      [paused],
      now,
    );
    expect(w).toMatchObject({ holds: 'lane_paused', until: '2026-11-30T06:20:00.000Z', lane: 'email:resend' });
    expect(w!.reason).toContain('resume_lane {"lane":"email:resend"}');
    // Another project's own lane does not hold it; a pause that has ended neither.
    expect(
      waitingReason(
        jobRow(),
        [lane({ laneKey: 'email:resend:blog', projectId: 'blog', pausedUntil: at('2026-11-30T07:00:00.000Z') })],
        now,
      )!.holds,
    ).toBe('due');
    expect(waitingReason(jobRow(), [lane({ pausedUntil: at('2026-11-30T05:00:00.000Z') })], now)!.holds).toBe('due');
  });

  it('a retry, a deferral, a scheduled time; nothing for a finished job', () => {
    expect(
      waitingReason(
        jobRow({
          status: 'retry',
          attempts: 2,
          runAt: at('2026-11-30T06:02:00.000Z'),
          error: 'Resend 500 internal_server_error',
        }),
        [],
        now,
      ),
    ).toMatchObject({
      holds: 'retry',
      until: '2026-11-30T06:02:00.000Z',
      reason: expect.stringContaining('attempt 3 of 5'),
    });
    expect(
      waitingReason(jobRow({ runAt: at('2026-11-30T07:00:00.000Z'), error: 'recipient cap: 3 a day' }), [], now),
    ).toMatchObject({ holds: 'deferred', until: '2026-11-30T07:00:00.000Z' });
    expect(
      waitingReason(
        jobRow({ scheduledAt: at('2026-11-30T08:00:00.000Z'), runAt: at('2026-11-30T08:00:00.000Z') }),
        [],
        now,
      ),
    ).toMatchObject({ holds: 'scheduled', until: '2026-11-30T08:00:00.000Z' });
    expect(waitingReason(jobRow({ status: 'sent' }), [], now)).toBeNull();
  });
});

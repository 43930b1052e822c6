import { jobRow } from '../../../test/helpers/job-row.js';
import type { JobRow } from '../../domain/job.types.js';
import { judgeJob, judgeRefusal } from './verdict.js';

const at = (iso: string) => new Date(iso);

/** A sent job: accepted by resend (message id m-1) on its first attempt, queued by an operator. */
const job = (patch: Partial<JobRow> = {}): JobRow =>
  jobRow({
    status: 'sent',
    attempts: 1,
    claimedAt: at('2026-11-30T06:00:00.000Z'),
    provider: 'resend',
    providerMessageId: 'm-1',
    sentAt: at('2026-11-30T06:00:01.000Z'),
    createdBy: null,
    ...patch,
  });

describe('trace verdicts', () => {
  it('the provider’s evidence outranks the bare acceptance: complained > bounced > delivered > sent', () => {
    expect(judgeJob(job(), null)).toMatchObject({
      verdict: 'sent',
      rule: null,
      reason: expect.stringMatching(/Accepted by resend .*provider message id m-1.*no delivery report/),
    });
    expect(judgeJob(job({ deliveredAt: at('2026-11-30T06:00:05.000Z') }), null).verdict).toBe('delivered');
    expect(
      judgeJob(
        job({ deliveredAt: at('2026-11-30T06:00:05.000Z'), bouncedAt: at('2026-11-30T06:01:00.000Z'), error: '550' }),
        null,
      ).verdict,
    ).toBe('bounced');
    expect(
      judgeJob(job({ deliveredAt: at('2026-11-30T06:00:05.000Z'), complainedAt: at('2026-11-30T07:00:00.000Z') }), null)
        .verdict,
    ).toBe('complained');
    expect(
      judgeJob(job({ status: 'bounced', bouncedAt: at('2026-11-30T06:01:00.000Z'), error: 'mailbox not found' }), null)
        .reason,
    ).toMatch(/mailbox not found/);
  });

  it('a failure quotes the provider; a suppression or a preference met at send time is a refusal with its rule', () => {
    expect(judgeJob(job({ status: 'failed', sentAt: null, attempts: 5, error: 'HTTP 503' }), null)).toMatchObject({
      verdict: 'failed',
      reason: expect.stringContaining("5 of 5 attempt(s) by resend; the provider's last answer: HTTP 503"),
    });
    expect(
      judgeJob(job({ status: 'failed', sentAt: null, error: 'suppressed: bounce (resend-webhook)' }), null),
    ).toMatchObject({
      verdict: 'refused',
      rule: 'suppressed',
      reason: expect.stringContaining('bounce (resend-webhook)'),
    });
    expect(
      judgeJob(job({ provider: 'skipped', error: 'subscriber opted out of marketing on sms' }), null),
    ).toMatchObject({ verdict: 'refused', rule: 'skipped_at_send' });
  });

  it('waiting and sending jobs say what holds them', () => {
    const waiting = {
      holds: 'lane_paused' as const,
      until: '2026-11-30T07:00:00.000Z',
      reason: 'Lane email:resend is paused',
      lane: 'email:resend',
    };
    expect(judgeJob(job({ status: 'pending', sentAt: null }), waiting)).toEqual({
      verdict: 'waiting',
      rule: null,
      reason: 'Lane email:resend is paused',
    });
    expect(judgeJob(job({ status: 'processing', sentAt: null }), null)).toMatchObject({
      verdict: 'sending',
      reason: expect.stringContaining('attempt 1 of 5'),
    });
    expect(judgeJob(job({ status: 'cancelled', sentAt: null }), null).verdict).toBe('cancelled');
  });

  it('a refusal at enqueue names its rule in words and keeps the detail', () => {
    expect(judgeRefusal({ rule: 'capped', channel: 'sms', detail: 'at most 3 per day on sms' })).toEqual({
      verdict: 'refused',
      rule: 'capped',
      reason:
        'Refused when it was asked for (sms): a per-recipient cap was already reached — at most 3 per day on sms. No job was queued.',
    });
    expect(judgeRefusal({ rule: 'something_new', channel: 'email', detail: 'x' }).reason).toContain('something_new');
  });
});

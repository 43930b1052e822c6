import { allot, capReason, describeWindow, type CappedJob, type RecipientCap } from './cap-rules.js';

const cap = (c: Partial<RecipientCap>): RecipientCap => ({
  id: 'c1',
  projectId: 'p',
  channel: '*',
  topic: '*',
  maxMessages: 2,
  windowSeconds: 3600,
  ...c,
});
let n = 0;
const job = (j: Partial<CappedJob>): CappedJob => ({
  id: `j${++n}`,
  projectId: 'p',
  subscriberId: 'u1',
  channel: 'email',
  topic: null,
  ...j,
});

describe('allot', () => {
  it('lets through up to the cap, counting earlier sends and earlier jobs of the same list', () => {
    const jobs = [job({}), job({}), job({})];
    const { over, counted } = allot(jobs, [cap({})], new Map([['c1/u1', 1]]));
    expect(counted.map((j) => j.id)).toEqual([jobs[0].id]);
    expect([...over.keys()]).toEqual([jobs[1].id, jobs[2].id]);
    expect(over.get(jobs[1].id)).toMatch(/^recipient cap reached: at most 2 per 1 h \(all channels; cap c1\)/);
  });

  it('counts each subscriber on its own', () => {
    const jobs = [job({ subscriberId: 'a' }), job({ subscriberId: 'b' }), job({ subscriberId: 'a' })];
    const { over } = allot(jobs, [cap({ maxMessages: 1 })], new Map());
    expect([...over.keys()]).toEqual([jobs[2].id]);
  });

  it('applies a channel cap to its channel only and a topic cap to its topic only', () => {
    const caps = [
      cap({ id: 'sms', channel: 'sms', maxMessages: 1 }),
      cap({ id: 'promo', topic: 'promo', maxMessages: 1 }),
    ];
    const jobs = [
      job({ channel: 'sms' }),
      job({ channel: 'sms' }),
      job({ channel: 'email' }),
      job({ topic: 'promo' }),
      job({ topic: 'promo' }),
      job({ topic: 'news' }),
    ];
    const { over, counted } = allot(jobs, caps, new Map());
    expect([...over.keys()]).toEqual([jobs[1].id, jobs[4].id]);
    expect(counted.map((j) => j.id)).toEqual([jobs[0].id, jobs[3].id]); // jobs[2] and jobs[5] match no cap
  });

  it('a job must fit every matching cap, and counts against all of them', () => {
    const caps = [cap({ id: 'all', maxMessages: 10 }), cap({ id: 'email', channel: 'email', maxMessages: 1 })];
    const jobs = [job({}), job({}), job({ channel: 'sms' }), job({ channel: 'sms' })];
    const { over, counted } = allot(jobs, caps, new Map([['all/u1', 8]]));
    expect(over.get(jobs[1].id)).toMatch(/cap email/); // email full, all at 9 of 10
    expect(counted.map((j) => j.id)).toEqual([jobs[0].id, jobs[2].id]);
    expect(over.get(jobs[3].id)).toMatch(/cap all/); // the first SMS took the 10th slot
  });

  it('ignores jobs without a subscriber and caps of other projects', () => {
    const { over, counted } = allot(
      [job({ subscriberId: null }), job({ projectId: 'q' })],
      [cap({ maxMessages: 1 })],
      new Map([['c1/u1', 5]]),
    );
    expect(over.size).toBe(0);
    expect(counted).toEqual([]);
  });
});

describe('reasons', () => {
  it('say the cap in readable units', () => {
    expect(describeWindow(86_400 * 7)).toBe('7 d');
    expect(describeWindow(5_400)).toBe('90 min');
    expect(describeWindow(61)).toBe('61 s');
    expect(capReason(cap({ channel: 'sms', topic: 'promo', maxMessages: 3, windowSeconds: 86_400 }))).toBe(
      "recipient cap reached: at most 3 per 1 d (sms, topic 'promo'; cap c1); not sent",
    );
  });
});

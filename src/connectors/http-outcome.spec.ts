import { classifyHttpStatus, headerLookup, parseRetryAfter, readQuota } from './http-outcome.js';

const now = new Date('2026-11-30T10:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['2', 2000],
    ['0', 0],
    ['1.5', 1500],
    ['Mon, 30 Nov 2026 10:00:30 GMT', 30_000],
    ['Mon, 30 Nov 2026 09:59:00 GMT', 0],
  ])('%s → %i ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([undefined, null, '', 'soon', '-5', '12abc'])('%s → undefined', (value) => {
    expect(parseRetryAfter(value as string | undefined, now)).toBeUndefined();
  });
});

describe('classifyHttpStatus', () => {
  const headers = headerLookup({ 'Retry-After': '7' });
  it('2xx is a success', () => expect(classifyHttpStatus(202, headers, '', now)).toBeNull());
  it('429 is rate_limited with the Retry-After wait', () => {
    expect(classifyHttpStatus(429, headers, 'slow down', now)).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 7000,
      message: 'HTTP 429: slow down',
    });
  });
  it('429 without Retry-After leaves the wait to the pacing default', () => {
    expect(classifyHttpStatus(429, headerLookup({}), '', now)).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: undefined,
    });
  });
  it.each([408, 500, 502, 503, 504])('%i is transient', (status) => {
    expect(classifyHttpStatus(status, headerLookup({}), '', now)?.kind).toBe('transient');
  });
  it.each([400, 401, 403, 404, 410, 413, 422])('%i is permanent', (status) => {
    expect(classifyHttpStatus(status, headerLookup({}), '', now)?.kind).toBe('permanent');
  });
  it('truncates a long body in the message', () => {
    expect(classifyHttpStatus(500, headerLookup({}), 'x'.repeat(2000), now)!.message.length).toBeLessThan(520);
  });
});

describe('readQuota', () => {
  it('reads the IETF ratelimit headers (reset in seconds from now)', () => {
    expect(
      readQuota(headerLookup({ 'ratelimit-limit': '10', 'ratelimit-remaining': '3', 'ratelimit-reset': '2' }), now),
    ).toEqual({
      limit: 10,
      remaining: 3,
      resetAt: new Date('2026-11-30T10:00:02Z'),
    });
  });
  it('reads X-RateLimit headers with an epoch reset', () => {
    const epoch = Date.parse('2026-11-30T10:01:00Z') / 1000;
    expect(readQuota(headerLookup({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(epoch) }), now)).toEqual({
      limit: undefined,
      remaining: 0,
      resetAt: new Date('2026-11-30T10:01:00Z'),
    });
  });
  it('is undefined without quota headers', () => expect(readQuota(headerLookup({}), now)).toBeUndefined());
});

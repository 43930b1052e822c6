import { unboundedQuantifiers } from '../../test/helpers/regex-shape.js';
import { LOG_PATTERNS, loggableUrl, maskPii, MAX_LOGGED_TEXT_CHARS, MAX_LOGGED_URL_CHARS } from './redact.js';

describe('log redaction is bounded and linear', () => {
  it('every pattern it runs has only bounded quantifiers', () => {
    expect(LOG_PATTERNS.length).toBeGreaterThanOrEqual(4);
    for (const re of LOG_PATTERNS) expect([re.source, unboundedQuantifiers(re)]).toEqual([re.source, []]);
  });

  it('cuts a 15 000-character URL before masking it, and says how much was cut', () => {
    const url = `/${'a'.repeat(15_000)}`;
    const logged = loggableUrl(url);
    expect(logged.length).toBeLessThanOrEqual(MAX_LOGGED_URL_CHARS + 40);
    expect(logged).toMatch(/…\[\d+ more characters not logged\]$/);
    const kept = logged.slice(0, logged.indexOf('…'));
    expect(Number(/\[(\d+) more/.exec(logged)![1])).toBe(url.length - kept.length);
  });

  it('cuts long messages too', () => {
    const masked = maskPii(`${'x'.repeat(100_000)} jane@example.com`);
    expect(masked.length).toBeLessThanOrEqual(MAX_LOGGED_TEXT_CHARS + 40);
    expect(masked).not.toContain('jane@example.com');
  });

  it('never leaves half an address at the cut', () => {
    const prefix = `/v1/subscribers/${'b/'.repeat((MAX_LOGGED_URL_CHARS - 30) / 2)}`;
    const logged = loggableUrl(`${prefix}jane.doe@example.com?x=1`);
    expect(logged).not.toMatch(/jane|doe@|\.doe/);
  });

  it('masks correctly on adversarial input (long runs that almost match)', () => {
    const run = 'a'.repeat(1_500);
    expect(maskPii(`${run} jane@example.com ${run}@example.com`)).toBe(`${run} j***@example.com ${run}@example.com`);
    expect(maskPii(`${'b'.repeat(64)}@example.com`)).toBe('b***@example.com');
    expect(maskPii(`${run} ${'+1'.repeat(500)}`)).toBe(`${run} ${'+1'.repeat(500)}`);
    expect(maskPii(`call +33612345678, ${'@'.repeat(1_000)} or ${'a.'.repeat(500)}@x`)).toBe(
      `call ***5678, ${'@'.repeat(1_000)} or ${'a.'.repeat(500)}@x`,
    );
    expect(maskPii(`${'a@'.repeat(700)}example.com`)).toBe(`${'a@'.repeat(699)}**@example.com`);
  });
});

describe('request URLs in the log carry no bearer secret', () => {
  it.each([
    ['/u/u1.k1.eyJwIjoicDEifQ.c2lnbmF0dXJl', '/u/[redacted]'],
    ['/p/p1.j.eyJwIjoicDEifQ.c2lnbmF0dXJl', '/p/[redacted]'],
    ['/u/u1.k1.eyJwIjoicDEifQ.c2ln?scope=all', '/u/[redacted]?scope=all'],
    ['/t/c/WyJjIiwiam9iIl0.abcdef0123456789', '/t/c/[redacted]'],
    ['/t/o/WyJvIiwiam9iIl0.abcdef0123456789.gif', '/t/o/[redacted]'],
    ['/v1/inbox/u1/stream?ticket=tkt_secret&last_event_id=4', '/v1/inbox/u1/stream?ticket=[redacted]&last_event_id=4'],
    ['/v1/inbox/u1/stream?token=tkt_secret', '/v1/inbox/u1/stream?token=[redacted]'],
    [
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=s3cret&hub.challenge=42',
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=42',
    ],
    [
      '/x?api_key=sk_1&Signature=abc&client_secret=z',
      '/x?api_key=[redacted]&Signature=[redacted]&client_secret=[redacted]',
    ],
    ['/v1/jobs/0197?wait=5s', '/v1/jobs/0197?wait=5s'],
  ])('%s → %s', (url, logged) => expect(loggableUrl(url)).toBe(logged));
});

import { Writable } from 'node:stream';
import { createPino, PinoLogger } from '../../src/logging/logger.js';
import { MAX_LOGGED_URL_CHARS } from '../../src/logging/redact.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The request log (one line per request, written by the onResponse hook): an unauthenticated
 * caller controls the URL, so what the line carries is bounded (a 15 000-character path is cut
 * before masking) and the secrets URLs carry (unsubscribe and tracking tokens in the path,
 * stream tickets and verify tokens in the query) never reach it.
 */
describe('security: the request log', () => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });

  beforeAll(async () => {
    t = await startTestApp({
      logger: new PinoLogger(createPino('info', stream)),
      env: { WHATSAPP_VERIFY_TOKEN: 'verify-token-0123456789' },
    });
  });
  afterAll(() => t.close());

  /** The request line logged for a GET of `path` (the hook runs after the answer is sent: wait for it). */
  async function requestLine(path: string): Promise<Record<string, unknown>> {
    const before = lines.length;
    const res = await t.http.get(path);
    expect(res.status).toBeLessThan(500);
    // Up to 10 s: usually the first turn of the event loop, but a loaded machine can be slow.
    for (let i = 0; i < 1_000; i++) {
      const line = lines.slice(before).find((l) => l.msg === 'request');
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no request line for ${path.slice(0, 80)}`);
  }
  const loggedUrl = async (path: string) => (await requestLine(path)).url as string;

  it('cuts a 15 000-character path before masking it, with a marker', async () => {
    const url = await loggedUrl(`/${'a'.repeat(15_000)}`);
    expect(url.length).toBeLessThanOrEqual(MAX_LOGGED_URL_CHARS + 40);
    expect(url).toMatch(/^\/a+…\[\d+ more characters not logged\]$/);
  });

  it.each([
    ['an unsubscribe link', '/u/u1.k1.eyJwIjoicDEifQ.UNSUBSECRET0123456789', '/u/[redacted]'],
    ['a click link', '/t/c/WyJjIiwiMDE5NyJd.CLICKSECRET0123456789', '/t/c/[redacted]'],
    ['an open pixel', '/t/o/WyJvIiwiMDE5NyJd.OPENSECRET0123456789.gif', '/t/o/[redacted]'],
    [
      'an inbox stream ticket',
      '/v1/inbox/u1/stream?ticket=tkt_TICKETSECRET0123456789',
      '/v1/inbox/u1/stream?ticket=[redacted]',
    ],
    [
      'a WhatsApp verify token',
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=VERIFYSECRET0123&hub.challenge=1',
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=1',
    ],
  ])('logs %s without its secret', async (_what, path, logged) => {
    const line = await requestLine(path);
    expect(line.url).toBe(logged);
    expect(JSON.stringify(line)).not.toMatch(/SECRET0123/);
  });

  it('masks an address in the path', async () => {
    expect(await loggedUrl('/v1/subscribers/jane.doe@example.com')).toBe('/v1/subscribers/j***@example.com');
  });
});

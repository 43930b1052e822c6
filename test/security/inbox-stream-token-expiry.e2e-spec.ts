import { decodeJwt, SignJWT } from 'jose';
import { SseClient } from '../helpers/sse-client.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const JWT_SECRET = 'test-jwt-secret-0123456789abcdef';

/**
 * Review of the inbox stream: a stream opened with a subscriber token (by header, or through a
 * ticket minted from it) stayed open after the token expired, for as long as the socket lived,
 * while REST refused that token from its expiry on. The stream now ends at the token's `exp`,
 * a ticket does not outlive its token, and the client's reconnection with the expired token is
 * refused; a project-key stream does not expire.
 */
describe('an inbox stream opened with a subscriber token ends when the token expires', () => {
  let t: TestApp;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: { INBOX_HEARTBEAT_SECS: '1' } });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t.close();
  });

  const open = async (path: string, headers: Record<string, string> = {}) => {
    const stream = await SseClient.open(`${t.url}${path}`, headers);
    streams.push(stream);
    return stream;
  };
  /** 'ended' once the server closed the stream, 'open' if it is still open after `ms` (generous: a loaded machine). */
  const settle = async (stream: SseClient, ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      stream.ended.then(() => 'ended'),
      new Promise<string>((resolve) => (timer = setTimeout(() => resolve('open'), ms))),
    ]);
    clearTimeout(timer);
    return outcome;
  };
  const ticketWith = (headers: Record<string, string>) => {
    let req = t.http.post('/v1/inbox/u1/stream-ticket');
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    return req;
  };

  it('ends header and ticket streams at exp; the expired token is then refused; project-key streams stay', async () => {
    const p = await t.createProject();
    expect((await t.http.post('/v1/subscribers').set('X-Api-Key', p.key).send({ id: 'u1' })).status).toBeLessThan(300);
    // The mint API's minimum is 1 h: the same claims (project, epoch, version), signed to expire in a few seconds.
    const minted = await t.http
      .post('/v1/auth/subscriber-token')
      .set('X-Api-Key', p.key)
      .send({ subscriber_id: 'u1', ttl_hours: 1 });
    const claims = decodeJwt(minted.body.token as string);
    const exp = Math.floor(Date.now() / 1000) + 8;
    const short = await new SignJWT({ project: claims.project, pe: claims.pe, sv: claims.sv })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('u1')
      .setAudience('notifyd:inbox')
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(JWT_SECRET));
    const bearer = { Authorization: `Bearer ${short}` };

    const ticket = await ticketWith(bearer);
    expect(ticket.status).toBe(200);
    // The ticket does not outlive the token (60 s otherwise).
    expect(ticket.body.expires_in_seconds).toBeLessThanOrEqual(8);
    const spare = (await ticketWith(bearer)).body.ticket as string;
    const byTicket = await open(ticket.body.stream_url);
    const byHeader = await open('/v1/inbox/u1/stream', bearer);
    const byKey = await open('/v1/inbox/u1/stream', { 'X-Api-Key': p.key });
    const byKeyTicket = await open((await ticketWith({ 'X-Api-Key': p.key })).body.stream_url);
    for (const s of [byTicket, byHeader, byKey, byKeyTicket]) {
      expect(s.status).toBe(200);
      await s.next((e) => e.event === 'counts', 20_000);
    }

    expect(await settle(byHeader, 60_000)).toBe('ended');
    expect(await settle(byTicket, 60_000)).toBe('ended');
    // Not before the token's expiry (Node may fire a timer a millisecond early; a second of slack).
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000 - 1_000);
    expect(await settle(byKey, 1_500)).toBe('open');
    expect(await settle(byKeyTicket, 10)).toBe('open');

    // The client reconnects: its expired token gets no stream and no ticket, and an unused ticket from it is gone.
    const again = await open('/v1/inbox/u1/stream', bearer);
    expect(again.status).toBe(401);
    expect((await ticketWith(bearer)).status).toBe(401);
    expect((await open(`/v1/inbox/u1/stream?ticket=${spare}`)).status).toBe(401);
  });
});

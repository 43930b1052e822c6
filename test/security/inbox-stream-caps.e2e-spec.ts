import net from 'node:net';
import { InboxHub } from '../../src/inbox/stream/inbox-hub.js';
import { withinOneWindow } from '../helpers/rate-window.js';
import { SseClient } from '../helpers/sse-client.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Security finding 3 (issue 18): one subscriber token could open every stream the server had,
 * tickets were unlimited, and a reader that never read made the server buffer without bound.
 * Now streams are capped per subscriber and per project, tickets per subscriber per minute, and
 * a stream whose unsent buffer passes INBOX_STREAM_MAX_BUFFER_BYTES is closed (the client
 * reconnects with Last-Event-ID and replays).
 */
describe('inbox stream caps', () => {
  let t: TestApp;
  let hub: InboxHub;
  let project: { id: string; key: string };
  const clients: SseClient[] = [];
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        IN_APP_PROVIDER: 'inbox',
        INBOX_MAX_STREAMS_PER_SUBSCRIBER: '2',
        INBOX_MAX_STREAMS_PER_PROJECT: '3',
        INBOX_STREAM_TICKETS_PER_MIN: '5',
        INBOX_STREAM_MAX_BUFFER_BYTES: '524288',
        // A stream still congested a heartbeat later is closed: a short heartbeat keeps the test short.
        INBOX_HEARTBEAT_SECS: '1',
      },
    });
    hub = t.notifyd.app.get(InboxHub);
    project = await t.createProject();
    for (const id of ['u1', 'p1', 'p2', 'p3', 'u4', 'u5'])
      await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id }).expect(200);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    for (const s of sockets.splice(0)) s.destroy();
    await until(() => hub.openStreams === 0, 'every stream closed');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what} (open streams: ${hub.openStreams})`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  const ticketFor = async (subscriber: string, key = project.key) => {
    const res = await t.http.post(`/v1/inbox/${subscriber}/stream-ticket`).set('X-Api-Key', key);
    expect(res.status).toBe(200);
    return res.body.ticket as string;
  };
  const open = async (subscriber: string, key = project.key, query = '') => {
    const client = await SseClient.open(
      `${t.url}/v1/inbox/${subscriber}/stream?ticket=${await ticketFor(subscriber, key)}${query}`,
    );
    clients.push(client);
    return client;
  };

  it('refuses the stream past INBOX_MAX_STREAMS_PER_SUBSCRIBER; a closed stream gives its slot back', async () => {
    const [a, b] = [await open('u1'), await open('u1')];
    expect([a.status, b.status]).toEqual([200, 200]);
    const third = await open('u1');
    expect([third.status, third.body?.error]).toEqual([429, 'too_many_streams']);
    expect(third.body.message).toMatch(/2 open streams.*INBOX_MAX_STREAMS_PER_SUBSCRIBER/);

    a.close();
    await until(() => hub.openStreams === 1, 'the closed stream released');
    expect((await open('u1')).status).toBe(200);
  });

  it('refuses the stream past INBOX_MAX_STREAMS_PER_PROJECT; other projects are not affected', async () => {
    expect([(await open('p1')).status, (await open('p1')).status, (await open('p2')).status]).toEqual([200, 200, 200]);
    const refused = await open('p3');
    expect([refused.status, refused.body?.error]).toEqual([429, 'too_many_streams']);
    expect(refused.body.message).toMatch(/3 open streams.*INBOX_MAX_STREAMS_PER_PROJECT/);

    const other = await t.createProject();
    await t.http.post('/v1/subscribers').set('X-Api-Key', other.key).send({ id: 'p3' }).expect(200);
    expect((await open('p3', other.key)).status).toBe(200);
  });

  it('limits stream tickets per subscriber per minute (INBOX_STREAM_TICKETS_PER_MIN)', async () => {
    await withinOneWindow();
    for (let i = 0; i < 5; i++) await ticketFor('u4');
    const refused = await t.http.post('/v1/inbox/u4/stream-ticket').set('X-Api-Key', project.key);
    expect([refused.status, refused.body.error]).toEqual([429, 'rate_limited']);
    expect(refused.body.message).toMatch(/5 stream tickets per minute.*INBOX_STREAM_TICKETS_PER_MIN/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another subscriber of the same project still gets one.
    await ticketFor('p3');
  });

  it('drops a stream whose reader stops reading once its unsent buffer passes the bound; it can reconnect and replay', async () => {
    const ticket = await ticketFor('u5');
    const port = new URL(t.url).port;
    const socket = net.connect(Number(port), '127.0.0.1');
    sockets.push(socket);
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    const head = await new Promise<string>((resolve) => {
      socket.once('data', (chunk) => resolve(chunk.toString('latin1')));
      socket.write(
        `GET /v1/inbox/u5/stream?ticket=${ticket}&last_event_id=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    // From here the client never reads: what the server writes piles up in the kernel, then in notifyd.
    socket.pause();
    await until(() => hub.openStreams === 1, 'the stream registered');

    // About 8 MB of events: more than loopback's socket buffers (about 4 MB) and the bound hold.
    const body = 'x'.repeat(99_990);
    for (let i = 0; i < 80; i++) {
      const sent = await t.http
        .post('/v1/send')
        .set('X-Api-Key', project.key)
        .send({ channels: ['in_app'], subscriber_id: 'u5', body: `${i} ${body}` });
      expect([sent.status, sent.body.message]).toEqual([200, undefined]);
    }
    await t.worker.drainOnce();
    await until(() => hub.openStreams === 0, 'the stuck stream dropped', 30_000);
    socket.resume();
    await until(() => closed, 'the client saw its stream end');

    // The slot is free again and the client catches up from where it was.
    const back = await open('u5', project.key, '&last_event_id=0');
    expect(back.status).toBe(200);
    const first = await back.next((e) => e.event === 'message.created');
    expect(first.id).toBe('1');
    expect(first.data.message.body).toMatch(/^\d+ x{99990}$/);
  });
});

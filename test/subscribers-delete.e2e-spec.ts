import { SseClient } from './helpers/sse-client.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Deleting a subscriber erases what the inbox kept of them: the messages (foreign key) and the
 * stream's copies of those messages (inbox_events), which a subscriber created again with the
 * same id could otherwise replay from Last-Event-ID 0.
 */
describe('deleting a subscriber', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  const streams: SseClient[] = [];
  beforeAll(async () => {
    t = await startTestApp({ env: { IN_APP_PROVIDER: 'inbox', INBOX_HEARTBEAT_SECS: '1' } });
    project = await t.createProject();
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t.close();
  });

  const api = (req: any) => req.set('X-Api-Key', project.key);
  const eventsOf = async (id: string) =>
    (
      await t.db.sql(`SELECT count(*)::int AS n FROM inbox_events WHERE project_id = $1 AND subscriber_id = $2`, [
        project.id,
        id,
      ])
    )[0].n;

  it('erases their inbox events, so a subscriber created again with the id replays nothing of theirs', async () => {
    await api(t.http.post('/v1/subscribers')).send({ id: 'reused' }).expect(200);
    await api(t.http.post('/v1/send'))
      .send({ channels: ['in_app'], subscriber_id: 'reused', body: 'your reset code is 4242' })
      .expect(200);
    await t.worker.drainOnce();
    expect(await eventsOf('reused')).toBeGreaterThan(0);

    await api(t.http.delete('/v1/subscribers/reused')).expect(200);
    expect(await eventsOf('reused')).toBe(0);

    // The id is given to someone else: their stream, asked to replay from the start, gets nothing of the old one.
    await api(t.http.post('/v1/subscribers')).send({ id: 'reused' }).expect(200);
    const token = (await api(t.http.post('/v1/auth/subscriber-token')).send({ subscriber_id: 'reused' })).body.token;
    const ticket = (
      await t.http.post('/v1/inbox/reused/stream-ticket').set('Authorization', `Bearer ${token}`).expect(200)
    ).body.ticket;
    const s = await SseClient.open(`${t.url}/v1/inbox/reused/stream?ticket=${ticket}`, { 'last-event-id': '0' });
    streams.push(s);
    await s.next((e) => e.event === 'counts');
    expect(s.events.filter((e) => e.event === 'message.created')).toEqual([]);
  });

  it('erases the events of every subscriber of a deleted project', async () => {
    const other = await t.createProject();
    await t.http.post('/v1/subscribers').set('X-Api-Key', other.key).send({ id: 'x' }).expect(200);
    await t.http
      .post('/v1/send')
      .set('X-Api-Key', other.key)
      .send({ channels: ['in_app'], subscriber_id: 'x', body: 'hello' })
      .expect(200);
    await t.worker.drainOnce();
    const count = async () =>
      (await t.db.sql(`SELECT count(*)::int AS n FROM inbox_events WHERE project_id = $1`, [other.id]))[0].n;
    expect(await count()).toBeGreaterThan(0);
    await t.db.sql(`DELETE FROM projects WHERE id = $1`, [other.id]);
    expect(await count()).toBe(0);
  });
});

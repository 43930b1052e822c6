import { SseClient } from '../helpers/sse-client.js';
import { ADMIN_KEY, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 18, finding "subscriber JWTs cannot be revoked": a token minted for a subscriber kept
 * opening that inbox after the subscriber was deleted, and after the project was deleted and
 * created again with the same id. Tokens now carry the subscriber's token version and the
 * project's epoch, checked on every use.
 */
describe('subscriber tokens can be revoked', () => {
  let t: TestApp;
  let replica: TestApp;
  let project: { id: string; key: string };
  const streams: SseClient[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: { INBOX_HEARTBEAT_SECS: '1' } });
    // A second process on the same database: a revocation must reach its cache too. Its cache
    // keeps an entry for 60 s, so only the signal can end a token there within the waits below.
    replica = await startTestApp({ database: t.db, env: { INBOX_HEARTBEAT_SECS: '1', AUTH_KEY_CACHE_MS: '60000' } });
    project = await t.createProject();
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await replica.close();
    await t.close();
  });

  const createSubscriber = async (id: string, key = project.key) =>
    expect((await t.http.post('/v1/subscribers').set('X-Api-Key', key).send({ id })).status).toBe(200);
  const mint = async (id: string, key = project.key) => {
    const res = await t.http.post('/v1/auth/subscriber-token').set('X-Api-Key', key).send({ subscriber_id: id });
    expect(res.status).toBe(200);
    return res.body.token as string;
  };
  const inbox = async (app: TestApp, id: string, token: string) =>
    app.http.get(`/v1/inbox/${id}/unread-count`).set('Authorization', `Bearer ${token}`);
  const status = async (app: TestApp, id: string, token: string) => (await inbox(app, id, token)).status;
  /**
   * The other process learns of a revocation by signal (its cache would keep the entry for 60 s):
   * a few ms usually, 20 s allowed for a loaded machine.
   */
  const eventually = async (check: () => Promise<number>, expected: number, ms = 20_000) => {
    const until = Date.now() + ms;
    let last = await check();
    while (last !== expected && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      last = await check();
    }
    return last;
  };

  it('a token stops working once its subscriber is deleted, and stays dead when the subscriber is created again', async () => {
    await createSubscriber('gone');
    const token = await mint('gone');
    expect(await status(t, 'gone', token)).toBe(200);
    expect(await status(replica, 'gone', token)).toBe(200); // cached there now

    expect((await t.http.delete('/v1/subscribers/gone').set('X-Api-Key', project.key)).status).toBe(200);
    const refused = await inbox(t, 'gone', token);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/POST \/v1\/auth\/subscriber-token/);
    expect(await eventually(() => status(replica, 'gone', token), 401)).toBe(401);

    await createSubscriber('gone');
    expect(await status(t, 'gone', token)).toBe(401);
    expect(await status(t, 'gone', await mint('gone'))).toBe(200);
  });

  it('POST /v1/subscribers/{id}/tokens/revoke ends every token, ticket and open stream of that subscriber; new tokens work', async () => {
    await createSubscriber('ana');
    await createSubscriber('bob');
    const token = await mint('ana');
    const other = await mint('bob');
    expect(await status(replica, 'ana', token)).toBe(200);
    const ticket = (await t.http.post('/v1/inbox/ana/stream-ticket').set('Authorization', `Bearer ${token}`)).body
      .ticket as string;
    const stream = await SseClient.open(`${t.url}/v1/inbox/ana/stream`, { Authorization: `Bearer ${token}` });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.next((e) => e.event === 'counts');

    const revoked = await t.http.post('/v1/subscribers/ana/tokens/revoke').set('X-Api-Key', project.key);
    expect([revoked.status, revoked.body]).toEqual([200, { success: true }]);

    expect(await status(t, 'ana', token)).toBe(401);
    expect(await eventually(() => status(replica, 'ana', token), 401)).toBe(401);
    const byTicket = await SseClient.open(`${t.url}/v1/inbox/ana/stream?ticket=${ticket}`);
    streams.push(byTicket);
    expect(byTicket.status).toBe(401);
    // The open stream is ended by the server: its connection closes.
    await expect(stream.ended).resolves.toBeUndefined();

    expect(await status(t, 'bob', other)).toBe(200); // another subscriber's tokens are untouched
    expect(await status(t, 'ana', await mint('ana'))).toBe(200);
    expect((await t.http.post('/v1/subscribers/nobody/tokens/revoke').set('X-Api-Key', project.key)).status).toBe(404);
    const foreign = await t.createProject();
    expect((await t.http.post('/v1/subscribers/bob/tokens/revoke').set('X-Api-Key', foreign.key)).status).toBe(404);
    expect(await status(t, 'bob', other)).toBe(200);
  });

  it('a token of a deleted project does not open the re-created project of the same id', async () => {
    const again = await t.createProject();
    await createSubscriber('carol', again.key);
    const token = await mint('carol', again.key);
    expect(await status(t, 'carol', token)).toBe(200);
    expect(await status(replica, 'carol', token)).toBe(200);

    expect((await t.http.delete(`/v1/admin/projects/${again.id}`).set('X-Api-Key', ADMIN_KEY)).status).toBe(200);
    const recreated = await t.http
      .post('/v1/admin/projects')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ id: again.id, name: 'Same id, new project' });
    expect(recreated.status).toBe(201);
    await createSubscriber('carol', recreated.body.project.api_key);

    expect(await status(t, 'carol', token)).toBe(401);
    expect(await eventually(() => status(replica, 'carol', token), 401)).toBe(401);
    expect(await status(t, 'carol', await mint('carol', recreated.body.project.api_key))).toBe(200);
  });

  it('tokens are minted only for subscribers the project has', async () => {
    const res = await t.http
      .post('/v1/auth/subscriber-token')
      .set('X-Api-Key', project.key)
      .send({ subscriber_id: 'never-created' });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/POST \/v1\/subscribers/);
  });
});

import request from 'supertest';
import { operatorScope, projectScope, RateLimiter } from '../../src/projects/rate-limit/rate-limiter.service.js';
import { withinOneWindow } from '../helpers/rate-window.js';
import { spawnNotifyd, type NotifydProcess } from '../helpers/spawn-notifyd.js';
import { SseClient } from '../helpers/sse-client.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from '../helpers/test-app.js';

/** What the tests need of an instance: its HTTP client. */
type Replica = Pick<TestApp, 'http'>;

/**
 * Security finding 4 (issue 18): `rate_limit_per_min` applied to REST only; the same key was
 * unlimited through /mcp and /v1/inbox/*, and each replica counted on its own. Now one budget
 * per project covers every door a project key or one of its subscriber tokens opens, shared by
 * the replicas; the operator keys have their own per-key budget on /mcp.
 */
describe('one rate limit for every door, shared by the replicas', () => {
  // Replicas reconcile their counts every RATE_LIMIT_SYNC_MS: short here so the test waits little.
  const env = { RATE_LIMIT_SYNC_MS: '100', MCP_OPERATOR_RATE_LIMIT_PER_MIN: '4' };
  let t: TestApp;
  // A real second process (not a second app in this one), so nothing is shared but the database.
  let child: NotifydProcess;
  let replica: Replica;

  beforeAll(async () => {
    t = await startTestApp({ env });
    child = await spawnNotifyd({
      databaseUrl: t.db.url,
      env: { ...env, NOTIFYD_ROLE: 'api' },
      startTimeoutMs: 110_000,
    });
    replica = { http: request(child.url!) };
  }, 120_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await t?.close();
  });

  const mcp = (app: Replica, key: string) =>
    app.http
      .post('/mcp')
      .set({ accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` })
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  const rest = (app: Replica, key: string) => app.http.get('/v1/subscribers').set('X-Api-Key', key);
  /** A sync tick of both replicas has run (several, to be safe on a busy machine). */
  /**
   * Until both replicas know what the other admitted for the project: this process reconciles on
   * demand; the child's writes are awaited in the table, then the child is given ticks to read
   * this process's (ticks every 100 ms; a generous margin because a loaded machine delays timers).
   */
  const synced = async (scope: string, total: number) => {
    const limiter = t.notifyd.app.get(RateLimiter);
    await limiter.sync();
    for (let i = 0; i < 200; i++) {
      const [row] = await t.db.sql(
        `SELECT COALESCE(sum(admitted), 0)::int AS n FROM rate_limit_counts WHERE scope = $1`,
        [scope],
      );
      if (row.n >= total) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await limiter.sync();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  };

  /** A project with subscriber u1 and a token for it (2 project requests), then limited to `limit` per minute. */
  async function limitedProject(limit: number) {
    const project = await t.createProject();
    expect((await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id: 'u1' })).status).toBe(200);
    const token = (
      await t.http.post('/v1/auth/subscriber-token').set('X-Api-Key', project.key).send({ subscriber_id: 'u1' })
    ).body.token as string;
    await t.http
      .patch(`/v1/admin/projects/${project.id}`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ rate_limit_per_min: limit })
      .expect(200);
    return { ...project, token };
  }

  const expectRefused = (res: { status: number; headers: Record<string, string>; body: any }, door: string) => {
    expect([door, res.status, res.body?.error]).toEqual([door, 429, 'rate_limited']);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  };

  it('REST, /mcp, the inbox API, stream tickets and streams all spend the same project budget', async () => {
    await withinOneWindow();
    const p = await limitedProject(9);
    const bearer = { authorization: `Bearer ${p.token}` };
    // 2 spent by the set-up; 7 more through four doors.
    for (let i = 0; i < 2; i++) expect((await rest(t, p.key)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await mcp(t, p.key)).status).toBe(200);
    const tickets: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.http.post('/v1/inbox/u1/stream-ticket').set(bearer);
      expect(res.status).toBe(200);
      tickets.push(res.body.ticket);
    }
    const stream = await SseClient.open(`${t.url}/v1/inbox/u1/stream?ticket=${tickets[0]}`);
    expect(stream.status).toBe(200);
    stream.close();

    const refusedRest = await rest(t, p.key);
    expectRefused(refusedRest, 'REST');
    expect(refusedRest.body.message).toBe(
      `Project '${p.id}' allows 9 API requests per minute (rate_limit_per_min); retry in ${refusedRest.headers['retry-after']} s, or raise the limit with PATCH /v1/admin/projects/${p.id}.`,
    );
    expectRefused(await mcp(t, p.key), '/mcp');
    expectRefused(await t.http.get('/v1/inbox/u1').set(bearer), 'inbox (subscriber token)');
    expectRefused(await t.http.get('/v1/inbox/u1/unread-count').set('X-Api-Key', p.key), 'inbox (project key)');
    expectRefused(await t.http.post('/v1/inbox/u1/stream-ticket').set(bearer), 'stream ticket');
    const refusedStream = await SseClient.open(`${t.url}/v1/inbox/u1/stream?ticket=${tickets[1]}`);
    expect([refusedStream.status, refusedStream.body?.error]).toEqual([429, 'rate_limited']);

    // Another project's budget is its own.
    const other = await t.createProject();
    expect((await rest(t, other.key)).status).toBe(200);
    expect((await mcp(t, other.key)).status).toBe(200);
  });

  it('two replicas on one database share one budget', async () => {
    await withinOneWindow();
    const p = await limitedProject(12);
    // 2 spent by the set-up on the first replica, 5 more there and 5 on the other: 12.
    for (let i = 0; i < 5; i++) expect((await rest(t, p.key)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await rest(replica, p.key)).status).toBe(200);
    await synced(projectScope(p.id), 12);
    expectRefused(await rest(t, p.key), 'REST, first replica');
    expectRefused(await rest(replica, p.key), 'REST, second replica');
    expectRefused(await mcp(replica, p.key), '/mcp, second replica');
    expectRefused(
      await replica.http.get('/v1/inbox/u1').set('authorization', `Bearer ${p.token}`),
      'inbox, second replica',
    );
  });

  it('the operator keys have a per-key budget on /mcp, shared too; refused keys spend nothing', async () => {
    await withinOneWindow();
    // Unauthenticated requests are answered before the limiter and count against nobody.
    for (let i = 0; i < 6; i++) expect((await mcp(t, `wrong-key-${i}-0123456789abcdef`)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await mcp(t, ADMIN_KEY)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await mcp(replica, ADMIN_KEY)).status).toBe(200);
    await synced(operatorScope('admin'), 4);
    const refused = await mcp(t, ADMIN_KEY);
    expectRefused(refused, '/mcp, admin key');
    expect(refused.body.message).toMatch(/MCP_OPERATOR_RATE_LIMIT_PER_MIN/);
    expectRefused(await mcp(replica, ADMIN_KEY), '/mcp, admin key, second replica');
    // The read-only key's budget is its own.
    expect((await mcp(t, READONLY_KEY)).status).toBe(200);
  });
});

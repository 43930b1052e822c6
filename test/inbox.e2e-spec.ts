import { SignJWT } from 'jose';
import { InboxMaintenance } from '../src/inbox/inbox-maintenance.service.js';
import { PeriodicTasks } from '../src/periodic/periodic-tasks.service.js';
import { InboxHub } from '../src/inbox/stream/inbox-hub.js';
import { WorkflowEngine } from '../src/workflows/engine/workflow-engine.js';
import { SseClient } from './helpers/sse-client.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const JWT_SECRET = 'test-jwt-secret-0123456789abcdef';

/** The inbox API, subscriber tokens and the realtime stream (two replicas on one database). */
describe('in-app inbox', () => {
  let t: TestApp;
  let replica: TestApp;
  let project: { id: string; key: string };
  let token: string;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    // IN_APP_PROVIDER=inbox: the in-app connector of issue 3b (its default once 3b lands).
    const env = { INBOX_HEARTBEAT_SECS: '1', IN_APP_PROVIDER: 'inbox' };
    t = await startTestApp({ env });
    replica = await startTestApp({ database: t.db, env });
    project = await t.createProject();
    for (const id of ['u1', 'u2']) await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id });
    token = (await t.http.post('/v1/auth/subscriber-token').set('X-Api-Key', project.key).send({ subscriber_id: 'u1' }))
      .body.token;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await replica.close();
    await t.close();
  });
  beforeEach(() => t.db.sql(`DELETE FROM inbox_messages`));
  // A subscriber may hold INBOX_MAX_STREAMS_PER_SUBSCRIBER streams per process: each test ends its own.
  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    for (let i = 0; i < 800 && [t, replica].some((app) => app.notifyd.app.get(InboxHub).openStreams > 0); i++)
      await new Promise((r) => setTimeout(r, 25));
  });

  const asU1 = (req: any) => req.set('Authorization', `Bearer ${token}`);
  /** Sends in-app messages through the API and lets the worker deliver them. */
  const deliver = async (...bodies: (string | Record<string, unknown>)[]) => {
    for (const b of bodies) {
      const body = typeof b === 'string' ? { body: b } : b;
      const res = await t.http
        .post('/v1/send')
        .set('X-Api-Key', project.key)
        .send({ channels: ['in_app'], subscriber_id: 'u1', ...body });
      expect(res.status).toBe(200);
      // One at a time: messages written by one finalise statement share their created_at.
      await t.worker.drainOnce();
    }
  };
  const open = async (app: TestApp, extra = '', headers: Record<string, string> = {}) => {
    const ticket = (await asU1(app.http.post('/v1/inbox/u1/stream-ticket'))).body.ticket;
    const s = await SseClient.open(`${app.url}/v1/inbox/u1/stream?ticket=${ticket}${extra}`, headers);
    streams.push(s);
    return s;
  };
  const counts = async () => (await asU1(t.http.get('/v1/inbox/u1/unread-count'))).body;

  it('subscriber tokens open only their own inbox; the project key opens any of its subscribers', async () => {
    const minted = await t.http
      .post('/v1/auth/subscriber-token')
      .set('X-Api-Key', project.key)
      .send({ subscriber_id: 'u1', ttl_hours: 30 });
    expect(minted.status).toBe(422);
    const ok = await t.http
      .post('/v1/auth/subscriber-token')
      .set('X-Api-Key', project.key)
      .send({ subscriber_id: 'u1', ttl_hours: 1 });
    expect(ok.body).toMatchObject({ subscriber_id: 'u1', project_id: project.id, ttl_hours: 1 });
    expect(new Date(ok.body.expires_at).getTime() - Date.now()).toBeGreaterThan(3_500_000);

    await deliver('hello');
    expect((await asU1(t.http.get('/v1/inbox/u1'))).body.items.map((m: { body: string }) => m.body)).toEqual(['hello']);
    const mismatch = await asU1(t.http.get('/v1/inbox/u2'));
    expect([mismatch.status, mismatch.body.message]).toEqual([
      403,
      'Token subscriber mismatch: this token opens only its own subscriber’s inbox.',
    ]);
    expect((await t.http.get('/v1/inbox/u1').set('X-Api-Key', project.key)).body.items).toHaveLength(1);
    const other = await t.createProject();
    expect((await t.http.get('/v1/inbox/u1').set('X-Api-Key', other.key)).body.items).toEqual([]);

    const key = new TextEncoder().encode(JWT_SECRET);
    const wrongAudience = await new SignJWT({ project: project.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setAudience('elsewhere')
      .setExpirationTime('1h')
      .sign(key);
    const expired = await new SignJWT({ project: project.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setAudience('notifyd:inbox')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    const forged = await new SignJWT({ project: project.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setAudience('notifyd:inbox')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-0123456789abcdef'));
    for (const bad of [wrongAudience, expired, forged, 'nonsense']) {
      expect((await t.http.get('/v1/inbox/u1').set('Authorization', `Bearer ${bad}`)).status).toBe(401);
    }
  });

  it('lists with cursor pagination and every filter applied in SQL', async () => {
    await deliver('one', 'two', { body: 'three shipped', subject: 'Order' }, 'four', 'five');
    await t.db.sql(`UPDATE inbox_messages SET topic = 'orders' WHERE body IN ('two', 'four')`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { body: string }[]; next_cursor: string | null } } = await asU1(
        t.http.get('/v1/inbox/u1').query({ limit: 2, ...(cursor ? { cursor } : {}) }),
      );
      seen.push(...page.body.items.map((m) => m.body));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['five', 'four', 'three shipped', 'two', 'one']);

    const list = async (query: Record<string, unknown>) =>
      (await asU1(t.http.get('/v1/inbox/u1').query(query))).body.items.map((m: { body: string }) => m.body);
    const [two] = (await t.db.sql(`SELECT id FROM inbox_messages WHERE body = 'two'`)).map((r) => r.id);
    const [four] = (await t.db.sql(`SELECT id FROM inbox_messages WHERE body = 'four'`)).map((r) => r.id);
    await asU1(t.http.patch(`/v1/inbox/u1/${two}`)).send({ read: true });
    await asU1(t.http.patch(`/v1/inbox/u1/${four}`)).send({ archived: true });
    expect(await list({ status: 'unread' })).toEqual(['five', 'three shipped', 'one']);
    expect(await list({ filter: 'unread', limit: 1 })).toEqual(['five']);
    expect(await list({ status: 'read' })).toEqual(['two']);
    expect(await list({ archived: 'true' })).toEqual(['four']);
    expect(await list({ topic: 'orders' })).toEqual(['two']);
    expect(await list({ topic: 'orders', archived: 'all' })).toEqual(['four', 'two']);
    // A topic filter is read as topics are stored (lower-cased), and one that cannot be a topic is refused.
    expect(await list({ topic: 'Orders' })).toEqual(['two']);
    const badTopic = await asU1(t.http.get('/v1/inbox/u1').query({ topic: 'my orders' }));
    expect(badTopic.status).toBe(422);
    expect(badTopic.body.message).toMatch(/^topic must be 1–64 characters of a-z/);
    expect(await list({ q: 'SHIPP' })).toEqual(['three shipped']);
    expect(await list({ q: 'Order' })).toEqual(['three shipped']);
    expect(await list({ q: '%' })).toEqual([]);
    expect((await asU1(t.http.get('/v1/inbox/u1').query({ cursor: 'x' }))).status).toBe(400);
    expect(
      (await asU1(t.http.patch('/v1/inbox/u1/00000000-0000-4000-8000-000000000000')).send({ read: true })).status,
    ).toBe(404);
  });

  it('counts unread and unseen; read, seen, archive one or all; snooze hides until it ends', async () => {
    await deliver('a', 'b', 'c');
    expect(await counts()).toEqual({ unread_count: 3, unseen_count: 3, total: 3 });
    const [a] = (await t.db.sql(`SELECT id FROM inbox_messages WHERE body = 'a'`)).map((r) => r.id);
    const read = await asU1(t.http.patch(`/v1/inbox/u1/${a}`)).send({ read: true });
    expect(read.body.message).toMatchObject({ is_read: true, is_seen: true });
    expect(await counts()).toEqual({ unread_count: 2, unseen_count: 2, total: 3 });
    expect((await asU1(t.http.patch(`/v1/inbox/u1/${a}`)).send({ read: false })).body.message).toMatchObject({
      is_read: false,
      is_seen: true,
    });
    expect((await asU1(t.http.post('/v1/inbox/u1/seen-all')).send({})).body.updated).toBe(2);
    expect(await counts()).toEqual({ unread_count: 3, unseen_count: 0, total: 3 });

    const [b] = (await t.db.sql(`SELECT id FROM inbox_messages WHERE body = 'b'`)).map((r) => r.id);
    const past = await asU1(t.http.patch(`/v1/inbox/u1/${b}`)).send({ snoozed_until: '2000-01-01T00:00:00Z' });
    expect(past.status).toBe(422);
    const snoozed = await asU1(t.http.patch(`/v1/inbox/u1/${b}`)).send({
      snoozed_until: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(snoozed.body.message.snoozed_until).not.toBeNull();
    expect(await counts()).toEqual({ unread_count: 2, unseen_count: 0, total: 2 });
    expect(
      (await asU1(t.http.get('/v1/inbox/u1').query({ snoozed: 'true' }))).body.items.map(
        (m: { body: string }) => m.body,
      ),
    ).toEqual(['b']);

    // Bulk actions change what the subscriber sees: the snoozed message is left alone.
    expect((await asU1(t.http.post('/v1/inbox/u1/read-all')).send({})).body.updated).toBe(2);
    expect((await asU1(t.http.post('/v1/inbox/u1/archive-all')).send({})).body.updated).toBe(2);
    expect(await counts()).toEqual({ unread_count: 0, unseen_count: 0, total: 0 });
    expect((await t.db.sql(`SELECT read_at, archived_at FROM inbox_messages WHERE id = $1`, [b]))[0]).toEqual({
      read_at: null,
      archived_at: null,
    });
  });

  it('streams new messages, changes and counts with ids that grow by one; tickets are single use', async () => {
    const ticket = (await asU1(t.http.post('/v1/inbox/u1/stream-ticket'))).body;
    expect(ticket).toMatchObject({ expires_in_seconds: 60 });
    const first = await SseClient.open(`${t.url}${ticket.stream_url}`);
    streams.push(first);
    expect(first.status).toBe(200);
    const again = await SseClient.open(`${t.url}${ticket.stream_url}`);
    expect([again.status, again.body.error]).toEqual([401, 'unauthorized']);
    const inUrl = await SseClient.open(`${t.url}/v1/inbox/u1/stream?token=${token}`);
    expect(inUrl.status).toBe(401);
    expect(inUrl.body.message).toMatch(/not accepted in URLs/);
    const foreign = (await t.http.post('/v1/inbox/u2/stream-ticket').set('X-Api-Key', project.key)).body.ticket;
    expect((await SseClient.open(`${t.url}/v1/inbox/u1/stream?ticket=${foreign}`)).status).toBe(403);

    const initial = await first.next((e) => e.event === 'counts');
    expect(initial.data).toEqual({ unread_count: 0, unseen_count: 0, total: 0 });
    const head = BigInt(initial.id!);
    await deliver({ body: 'live!', subject: 'Hi' });
    const created = await first.next((e) => e.event === 'message.created');
    expect(created.id).toBe(String(head + 1n));
    expect(created.data.message).toMatchObject({ title: 'Hi', body: 'live!', is_read: false });
    expect((await first.next((e) => e.event === 'counts' && e.data.unread_count === 1)).id).toBe(String(head + 1n));

    await asU1(t.http.patch(`/v1/inbox/u1/${created.data.message.id}`)).send({ read: true });
    const updated = await first.next((e) => e.event === 'message.updated');
    expect(updated).toMatchObject({ id: String(head + 2n), data: { message: { is_read: true } } });
    await first.next((e) => e.event === 'counts' && e.data.unread_count === 0);
    await asU1(t.http.post('/v1/inbox/u1/archive-all')).send({});
    expect(await first.next((e) => e.event === 'messages.archived')).toMatchObject({
      id: String(head + 3n),
      data: { count: 1, topic: null },
    });
    // A heartbeat comment (every INBOX_HEARTBEAT_SECS=1 s) arrives: waited for, a loaded machine may be late.
    for (let i = 0; i < 200 && first.comments === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(first.comments).toBeGreaterThan(0);
  });

  it('replays from Last-Event-ID after a reconnect, and asks for a resync when the events are gone', async () => {
    const s = await open(t);
    const at = BigInt((await s.next((e) => e.event === 'counts')).id!);
    s.close();
    await deliver('missed 1', 'missed 2');
    const back = await open(t, '', { 'last-event-id': String(at) });
    const replayed = [
      await back.next((e) => e.event === 'message.created'),
      await back.next((e) => e.event === 'message.created' && e.data.message.body === 'missed 2'),
    ];
    expect(replayed.map((e) => [e.id, e.data.message.body])).toEqual([
      [String(at + 1n), 'missed 1'],
      [String(at + 2n), 'missed 2'],
    ]);
    expect(back.events.filter((e) => e.event === 'message.created')).toHaveLength(2);

    await t.db.sql(`DELETE FROM inbox_events WHERE project_id = $1 AND subscriber_id = 'u1' AND id <= $2`, [
      project.id,
      String(at + 1n),
    ]);
    const stale = await open(t, `&last_event_id=${at}`);
    const resync = await stale.next((e) => e.event === 'resync');
    expect(resync.id).toBe(String(at + 2n));
    expect(stale.events.some((e) => e.event === 'message.created')).toBe(false);
  });

  it('every tab on every replica sees the same events and counts (one LISTEN per process fans out)', async () => {
    const tabs = [await open(t), await open(t), await open(replica)];
    for (const tab of tabs) await tab.next((e) => e.event === 'counts');
    expect(t.notifyd.app.get(InboxHub).openStreams).toBeGreaterThanOrEqual(2);
    await deliver('everywhere');
    for (const tab of tabs)
      await tab.next((e) => e.event === 'message.created' && e.data.message.body === 'everywhere');
    const [m] = (await t.db.sql(`SELECT id FROM inbox_messages WHERE body = 'everywhere'`)).map((r) => r.id);
    // Marked read through the replica: the tabs on the first process hear of it too.
    await asU1(replica.http.patch(`/v1/inbox/u1/${m}`)).send({ read: true });
    for (const tab of tabs) {
      const c = await tab.next((e) => e.event === 'counts' && e.data.unread_count === 0 && e.data.total === 1);
      expect(c.data).toEqual({ unread_count: 0, unseen_count: 0, total: 1 });
    }
  });

  it('a snooze that ends comes back as an event; the workflow condition inbox.is_read reads the inbox', async () => {
    await deliver('later');
    const [m] = (await t.db.sql(`SELECT id FROM inbox_messages WHERE body = 'later'`)).map((r) => r.id);
    await asU1(t.http.patch(`/v1/inbox/u1/${m}`)).send({ snoozed_until: new Date(Date.now() + 60_000).toISOString() });
    const s = await open(t);
    await s.next((e) => e.event === 'counts' && e.data.total === 0);
    // This test ends the snooze by hand: the periodic task must not take it first.
    t.notifyd.app.get(PeriodicTasks).stop('inbox-snoozes');
    await t.db.sql(`UPDATE inbox_messages SET snoozed_until = now() - interval '1 second' WHERE id = $1`, [m]);
    expect(await t.notifyd.app.get(InboxMaintenance).wakeSnoozed()).toBe(1);
    expect((await s.next((e) => e.event === 'message.updated')).data.message).toMatchObject({
      id: m,
      snoozed_until: null,
    });
    await s.next((e) => e.event === 'counts' && e.data.total === 1);

    await t.http
      .post('/v1/workflows')
      .set('X-Api-Key', project.key)
      .send({
        id: 'nudge',
        name: 'Nudge',
        trigger_event: 'nudge',
        steps: [
          { type: 'send', channel: 'in_app', body: 'read me' },
          { type: 'delay', duration_secs: 3600 },
          { type: 'condition', field: 'inbox.is_read', operator: 'eq', value: true, on_true: 4 },
          { type: 'send', channel: 'in_app', body: 'reminder' },
        ],
      });
    const engine = t.notifyd.app.get(WorkflowEngine);
    const trigger = async () =>
      (
        await t.http
          .post('/v1/workflows/trigger')
          .set('X-Api-Key', project.key)
          .send({ event: 'nudge', subscriber_id: 'u1' })
      ).body.workflow_runs[0];
    const [readRun, unreadRun] = [await trigger(), await trigger()];
    await engine.drainOnce();
    await t.worker.drainOnce();
    const [job] = (await t.db.sql(`SELECT context FROM workflow_runs WHERE id = $1`, [readRun]))[0].context.lastJobIds;
    await t.db.sql(`UPDATE inbox_messages SET read_at = now() WHERE job_id = $1`, [job]);
    await t.db.sql(`UPDATE workflow_runs SET run_at = now() WHERE status = 'waiting'`);
    await engine.drainOnce();
    await t.worker.drainOnce();
    const results = async (id: string) =>
      (await t.db.sql(`SELECT history FROM workflow_runs WHERE id = $1`, [id]))[0].history.map(
        (h: { result: string }) => h.result,
      );
    expect(await results(readRun)).toEqual(['sent', 'waiting', 'true']);
    expect(await results(unreadRun)).toEqual(['sent', 'waiting', 'false', 'sent']);
    expect((await t.db.sql(`SELECT count(*)::int AS n FROM inbox_messages WHERE body = 'reminder'`))[0].n).toBe(1);
  });
});

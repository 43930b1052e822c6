import type { WorkflowEngine } from '../src/workflows/engine/workflow-engine.js';
import type { RecordingConnector } from './helpers/recording-connector.js';
import type { TestApp } from './helpers/test-app.js';
import { startWorkflowApp, type WorkflowApp } from './helpers/workflow-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Workflows end to end: definitions, triggers, every step type, runs resumed by the engine, digests. */
describe('workflows', () => {
  let t: TestApp;
  let engine: WorkflowEngine;
  let provider: RecordingConnector;
  let project: { id: string; key: string };
  let app: WorkflowApp;

  beforeAll(async () => {
    ({ t, engine, provider, project } = app = await startWorkflowApp());
    for (const [id, phone, plan] of [
      ['u1', '+33600000001', 'pro'],
      ['u2', '+33600000002', 'free'],
    ]) {
      await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id, phone, data: { plan } });
    }
  });
  afterAll(() => t.close());
  beforeEach(() => app.reset());

  const trigger = async (
    event: string,
    subscriber = 'u1',
    payload: Record<string, unknown> = {},
    extra: Record<string, unknown> = {},
  ) => {
    const res = await t.http
      .post('/v1/workflows/trigger')
      .set('X-Api-Key', project.key)
      .send({ event, subscriber_id: subscriber, payload, ...extra });
    expect(res.status).toBe(200);
    return res.body as { workflow_runs: string[]; deduplicated: boolean };
  };
  const run = async (id: string) =>
    (await t.http.get(`/v1/workflows/runs/${id}`).set('X-Api-Key', project.key)).body.run;
  const jobs = () => t.db.sql(`SELECT id, subscriber_id, payload, idempotency_key FROM jobs ORDER BY created_at`);
  const resumeNow = () =>
    t.db.sql(`UPDATE workflow_runs SET run_at = now() WHERE status = 'waiting' AND context ? 'digest' = false`);

  it('validates definitions with one line per problem, and keeps them per project', async () => {
    const bad = await t.http
      .post('/v1/workflows')
      .set('X-Api-Key', project.key)
      .send({
        id: 'bad',
        name: 'Bad',
        trigger_event: 'x',
        steps: [
          { type: 'send', channel: 'pigeon', body: 'x' },
          { type: 'condition', field: 'payload.a', operator: 'eq', value: 1, on_true: 9 },
          { type: 'teleport' },
        ],
      });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toBe('invalid_steps');
    expect(bad.body.problems.join('\n')).toMatch(/steps\[0\]\.channel/);
    expect(bad.body.problems.join('\n')).toMatch(/steps\[2\]/);
    const jump = await t.http
      .post('/v1/workflows')
      .set('X-Api-Key', project.key)
      .send({
        id: 'jump',
        name: 'J',
        trigger_event: 'x',
        steps: [{ type: 'condition', field: 'payload.a', operator: 'eq', value: 1, on_true: 9 }],
      });
    expect(jump.body.message).toBe('steps[0] jumps to step 9, but there are 1 steps (0–0; 1 ends the run)');

    await app.define('welcome', [{ type: 'send', channel: 'sms', body: 'Welcome {{name}}' }]);
    const again = await t.http
      .post('/v1/workflows')
      .set('X-Api-Key', project.key)
      .send({
        id: 'welcome',
        name: 'Welcome v2',
        trigger_event: 'welcome.happened',
        steps: [{ type: 'send', channel: 'sms', body: 'Hi' }],
      });
    expect(again.body).toMatchObject({ created: false, workflow: { name: 'Welcome v2' } });
    expect((await t.http.get('/v1/workflows').set('X-Api-Key', project.key)).body.count).toBe(1);
    const other = await t.createProject();
    expect((await t.http.get('/v1/workflows/welcome').set('X-Api-Key', other.key)).status).toBe(404);
    expect((await t.http.delete('/v1/workflows/welcome').set('X-Api-Key', other.key)).status).toBe(404);
    expect(
      (
        await t.http
          .post('/v1/workflows/trigger')
          .set('X-Api-Key', other.key)
          .send({ event: 'welcome.happened', subscriber_id: 'u1' })
      ).body.workflow_runs,
    ).toEqual([]);
    expect((await t.http.delete('/v1/workflows/welcome').set('X-Api-Key', project.key)).status).toBe(200);
  });

  it('a trigger starts a run that sends with the payload as variables; a replayed key starts nothing', async () => {
    const event = await app.define('order', [
      { type: 'send', channel: 'sms', body: 'Order {{order.id}} for {{name}}' },
    ]);
    const first = await trigger(event, 'u1', { name: 'Jane', order: { id: 'A-1' } }, { idempotency_key: 'order-A-1' });
    expect(first.workflow_runs).toHaveLength(1);
    const replay = await trigger(event, 'u1', { name: 'Jane', order: { id: 'A-1' } }, { idempotency_key: 'order-A-1' });
    expect(replay).toMatchObject({ workflow_runs: first.workflow_runs, deduplicated: true });
    expect(await engine.drainOnce()).toBe(1);
    await t.worker.drainOnce();
    expect(provider.messages.map((m) => m.body)).toEqual(['Order A-1 for Jane']);
    const r = await run(first.workflow_runs[0]);
    expect(r).toMatchObject({
      status: 'completed',
      outcome: 'completed',
      history: [expect.objectContaining({ step: 0, type: 'send', result: 'sent' })],
    });
    expect((await jobs())[0].idempotency_key).toBe(`wf-${r.id}-0-1-sms`);
  });

  it('delay waits and resumes; conditions and branches read the payload and the subscriber', async () => {
    const event = await app.define('nudge', [
      { type: 'send', channel: 'sms', body: 'first' },
      { type: 'delay', duration_secs: 3600 },
      { type: 'condition', field: 'payload.total', operator: 'gt', value: 100, on_false: 5 },
      {
        type: 'branch',
        branches: [{ conditions: [{ field: 'subscriber.data.plan', operator: 'eq', value: 'pro' }], next: 4 }],
        default_next: 5,
      },
      { type: 'send', channel: 'sms', body: 'pro and big' },
    ]);
    const big = (await trigger(event, 'u1', { total: '250' })).workflow_runs[0];
    const small = (await trigger(event, 'u1', { total: 20 })).workflow_runs[0];
    const free = (await trigger(event, 'u2', { total: 500 })).workflow_runs[0];
    await engine.drainOnce();
    const waiting = await run(big);
    expect(waiting).toMatchObject({ status: 'waiting', current_step: 2 });
    expect(new Date(waiting.resume_at).getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect(await engine.drainOnce()).toBe(0);
    await resumeNow();
    await engine.drainOnce();
    await t.worker.drainOnce();
    expect(provider.messages.filter((m) => m.body === 'first')).toHaveLength(3);
    expect(provider.messages.filter((m) => m.body === 'pro and big').map((m) => m.recipient)).toEqual(['+33600000001']);
    expect((await run(big)).history.map((h: { result: string }) => h.result)).toEqual([
      'sent',
      'waiting',
      'true',
      'branch 0',
      'sent',
    ]);
    expect((await run(small)).history.map((h: { result: string }) => h.result)).toEqual(['sent', 'waiting', 'false']);
    expect((await run(free)).history.map((h: { result: string }) => h.result)).toEqual([
      'sent',
      'waiting',
      'true',
      'default',
    ]);
  });

  it('throttle lets `limit` runs through per window and key, and ends the others', async () => {
    const event = await app.define('alert', [
      { type: 'throttle', window_secs: 3600, limit: 2, key: 'payload.service' },
      { type: 'send', channel: 'sms', body: '{{service}} is down' },
    ]);
    const runs = [];
    for (const service of ['db', 'db', 'db', 'api'])
      runs.push((await trigger(event, 'u1', { service })).workflow_runs[0]);
    await engine.drainOnce();
    await t.worker.drainOnce();
    expect(provider.messages.map((m) => m.body).sort()).toEqual(['api is down', 'db is down', 'db is down']);
    const outcomes = await Promise.all(runs.map(async (id) => (await run(id)).outcome));
    expect(outcomes.filter((o) => o === 'throttled')).toHaveLength(1);
  });

  describe('digest (the failure modes other platforms shipped)', () => {
    const digestSteps = (extra: Record<string, unknown> = {}) => [
      { type: 'digest', window_secs: 1, channel: 'sms', body: '{{item_count}} updates', ...extra },
      { type: 'send', channel: 'sms', body: 'after the digest ({{subscriber_id}})' },
    ];
    const digests = () =>
      t.db.sql(
        `SELECT d.*, (SELECT count(*)::int FROM workflow_digest_items i WHERE i.digest_id = d.id) AS items FROM workflow_digests d ORDER BY opened_at`,
      );

    it('events in the same instant join one digest and send one message with every item', async () => {
      const event = await app.define('activity', digestSteps());
      const started = await Promise.all(Array.from({ length: 6 }, (_, i) => trigger(event, 'u1', { n: i })));
      const runs = started.map((s) => s.workflow_runs[0]);
      await engine.drainOnce();
      const [digest, ...none] = await digests();
      expect(none).toEqual([]);
      expect(digest).toMatchObject({ status: 'open', items: 6 });
      const states = await Promise.all(runs.map(run));
      expect(states.filter((s) => s.status === 'waiting').map((s) => s.id)).toEqual([digest.leader_run_id]);
      expect(states.filter((s) => s.outcome === `digested into run ${digest.leader_run_id}`)).toHaveLength(5);
      await sleep(1_100);
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(provider.messages.map((m) => m.body)).toEqual(['6 updates', 'after the digest (u1)']);
      const leader = await run(digest.leader_run_id);
      expect(leader.history.map((h: { result: string }) => h.result)).toEqual(['opened', 'closed', 'sent']);
      expect((await digests())[0].status).toBe('closed');
    });

    it('two different keys are never merged, nor two subscribers', async () => {
      const event = await app.define('threads', digestSteps({ key: 'payload.thread' }).slice(0, 1));
      await trigger(event, 'u1', { thread: 'a' });
      await trigger(event, 'u1', { thread: 'b' });
      await trigger(event, 'u1', { thread: 'a' });
      await trigger(event, 'u2', { thread: 'a' });
      await engine.drainOnce();
      const open = await digests();
      expect(open.map((d) => [d.subscriber_id, d.digest_key, d.items]).sort()).toEqual([
        ['u1', 'a', 2],
        ['u1', 'b', 1],
        ['u2', 'a', 1],
      ]);
      await sleep(1_100);
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(provider.messages.map((m) => `${m.recipient} ${m.body}`).sort()).toEqual([
        '+33600000001 1 updates',
        '+33600000001 2 updates',
        '+33600000002 1 updates',
      ]);
    });

    it('delay then digest sends once', async () => {
      const event = await app.define('delayed', [{ type: 'delay', duration_secs: 1 }, ...digestSteps().slice(0, 1)]);
      for (let i = 0; i < 3; i++) await trigger(event, 'u1', { n: i });
      await engine.drainOnce();
      expect(await digests()).toEqual([]);
      await sleep(1_100);
      await engine.drainOnce();
      expect((await digests()).map((d) => d.items)).toEqual([3]);
      await sleep(1_100);
      await engine.drainOnce();
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(provider.messages.map((m) => m.body)).toEqual(['3 updates']);
    });

    it('a retried close step sends once', async () => {
      const event = await app.define('retried', digestSteps().slice(0, 1));
      await trigger(event, 'u1', { n: 1 });
      await trigger(event, 'u1', { n: 2 });
      await engine.drainOnce();
      const [digest] = await digests();
      const [before] = await t.db.sql(`SELECT current_step, context, history FROM workflow_runs WHERE id = $1`, [
        digest.leader_run_id,
      ]);
      await sleep(1_100);
      await engine.drainOnce();
      expect(await jobs()).toHaveLength(1);
      // The engine died after the close step queued the message but before the run recorded it:
      // the run is handed out again from where it stood.
      await t.db.sql(
        `UPDATE workflow_runs SET status = 'pending', run_at = now(), finished_at = NULL, current_step = $2, context = $3, history = $4 WHERE id = $1`,
        [digest.leader_run_id, before.current_step, before.context, JSON.stringify(before.history)],
      );
      await engine.drainOnce();
      expect((await run(digest.leader_run_id)).status).toBe('completed');
      const all = await jobs();
      expect(all).toHaveLength(1);
      await t.worker.drainOnce();
      expect(provider.messages.map((m) => m.body)).toEqual(['2 updates']);
    });

    it('cancelling the run that leads a digest cancels the digest; a finished run cannot be cancelled', async () => {
      const event = await app.define('cancel', [{ type: 'digest', window_secs: 3600, channel: 'sms', body: 'x' }]);
      const [leader] = (await trigger(event, 'u1')).workflow_runs;
      await engine.drainOnce();
      const res = await t.http.delete(`/v1/workflows/runs/${leader}`).set('X-Api-Key', project.key);
      expect(res.body).toMatchObject({ success: true, digests_cancelled: 1 });
      expect((await digests())[0].status).toBe('cancelled');
      expect((await t.http.delete(`/v1/workflows/runs/${leader}`).set('X-Api-Key', project.key)).status).toBe(409);
      const other = await t.createProject();
      expect((await t.http.delete(`/v1/workflows/runs/${leader}`).set('X-Api-Key', other.key)).status).toBe(404);
      // The next event opens a new digest: the cancelled one no longer holds the key.
      await trigger(event, 'u1');
      await engine.drainOnce();
      expect((await digests()).map((d) => d.status)).toEqual(['cancelled', 'open']);
    });
  });

  it('lists runs filtered in SQL with cursor pagination', async () => {
    const a = await app.define('list-a', [{ type: 'delay', duration_secs: 3600 }]);
    const b = await app.define('list-b', [{ type: 'send', channel: 'sms', body: 'x' }]);
    for (let i = 0; i < 3; i++) await trigger(a, 'u1');
    await trigger(b, 'u2');
    await engine.drainOnce();
    const waiting = await t.http
      .get('/v1/workflows/runs')
      .query({ status: 'waiting', workflow_id: 'list-a', limit: 2 })
      .set('X-Api-Key', project.key);
    expect(waiting.body.items).toHaveLength(2);
    const next = await t.http
      .get('/v1/workflows/runs')
      .query({ status: 'waiting', workflow_id: 'list-a', limit: 2, cursor: waiting.body.next_cursor })
      .set('X-Api-Key', project.key);
    expect(next.body).toMatchObject({ next_cursor: null });
    expect(new Set([...waiting.body.items, ...next.body.items].map((r: { id: string }) => r.id)).size).toBe(3);
    const bySubscriber = await t.http
      .get('/v1/workflows/runs')
      .query({ subscriber_id: 'u2' })
      .set('X-Api-Key', project.key);
    expect(
      bySubscriber.body.items.map((r: { workflow_id: string; status: string }) => [r.workflow_id, r.status]),
    ).toEqual([['list-b', 'completed']]);
  });
});

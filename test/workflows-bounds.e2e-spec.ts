import { randomBytes } from 'node:crypto';
import { RUN_HISTORY_KEPT } from '../src/workflows/engine/run-executor.js';
import type { WorkflowEngine } from '../src/workflows/engine/workflow-engine.js';
import { MAX_WORKFLOWS_PER_PROJECT } from '../src/workflows/workflows.service.js';
import { MAX_DIGEST_ITEMS } from '../src/workflows/workflow-steps.js';
import type { TestApp } from './helpers/test-app.js';
import { startWorkflowApp, type WorkflowApp } from './helpers/workflow-app.js';

/** What one definition or many triggers can make a run grow to: history and digest items stay bounded. */
describe('workflow bounds', () => {
  let t: TestApp;
  let engine: WorkflowEngine;
  let project: { id: string; key: string };
  let app: WorkflowApp;

  beforeAll(async () => {
    ({ t, engine, project } = app = await startWorkflowApp());
    const res = await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'u1', phone: '+33600000001' });
    expect(res.status).toBe(200);
  });
  afterAll(() => t?.close());
  beforeEach(() => app.reset());

  const trigger = async (event: string, payload: Record<string, unknown> = {}) => {
    const res = await t.http
      .post('/v1/workflows/trigger')
      .set('X-Api-Key', project.key)
      .send({ event, subscriber_id: 'u1', payload });
    expect(res.status).toBe(200);
    return res.body.workflow_runs as string[];
  };
  const run = async (id: string) =>
    (await t.http.get(`/v1/workflows/runs/${id}`).set('X-Api-Key', project.key)).body.run;

  it('a workflow that loops back over a delay runs on, but its history keeps only the newest entries', async () => {
    const event = await app.define('forever', [
      { type: 'delay', duration_secs: 1 },
      { type: 'condition', field: 'payload.loop', operator: 'exists', on_true: 0 },
    ]);
    const [id] = await trigger(event, { loop: true });
    // Each pass after the first adds two entries (condition true, delay waiting): 80 passes, ~160 entries unbounded.
    for (let pass = 0; pass < 80; pass++) {
      await t.db.sql(`UPDATE workflow_runs SET run_at = now() WHERE id = $1 AND status = 'waiting'`, [id]);
      expect(await engine.drainOnce()).toBe(1);
    }
    const r = await run(id);
    expect(r.status).toBe('waiting');
    expect(r.history.length).toBeGreaterThanOrEqual(RUN_HISTORY_KEPT);
    expect(r.history.length).toBeLessThanOrEqual(RUN_HISTORY_KEPT + 2);
    expect(r.history.at(-1)).toMatchObject({ step: 0, type: 'delay', result: 'waiting' });
  });

  it('a digest of more events than MAX_DIGEST_ITEMS counts them all but hands the template only the first', async () => {
    const event = await app.define('rollup', [
      { type: 'digest', window_secs: 3600, channel: 'sms', body: '{{item_count}} updates' },
    ]);
    const total = MAX_DIGEST_ITEMS + 30;
    for (let n = 0; n < total; n++) await trigger(event, { n });
    await engine.drainOnce();
    const [digest] = await t.db.sql(
      `SELECT d.id, d.leader_run_id, (SELECT count(*)::int FROM workflow_digest_items i WHERE i.digest_id = d.id) AS items FROM workflow_digests d`,
    );
    expect(digest.items).toBe(total);
    // The window ends now.
    await t.db.sql(`UPDATE workflow_digests SET closes_at = now() WHERE id = $1`, [digest.id]);
    await t.db.sql(
      `UPDATE workflow_runs SET run_at = now(), context = jsonb_set(context, '{digest,closesAt}', to_jsonb(now() - interval '1 second')) WHERE id = $1`,
      [digest.leader_run_id],
    );
    await engine.drainOnce();
    const [job] = await t.db.sql(`SELECT payload FROM jobs`);
    expect(job.payload.vars.item_count).toBe(total);
    expect(job.payload.vars.items).toHaveLength(MAX_DIGEST_ITEMS);
    // Runs join concurrently, so arrival order is not trigger order: each item is one event, none twice.
    expect(new Set(job.payload.vars.items.map((i: { n: number }) => i.n)).size).toBe(MAX_DIGEST_ITEMS);
    const leader = await run(digest.leader_run_id);
    expect(leader.status).toBe('completed');
    expect(leader.history.at(-1).detail).toContain(`${total} item(s) (the first ${MAX_DIGEST_ITEMS} in {{items}})`);
  });

  it('a digest whose events are large hands the template only what fits in a megabyte', async () => {
    const event = await app.define('bulky', [
      { type: 'digest', window_secs: 3600, channel: 'sms', body: '{{item_count}}' },
    ]);
    const blob = 'x'.repeat(300_000);
    for (let n = 0; n < 5; n++) await trigger(event, { n, blob });
    await engine.drainOnce();
    const [digest] = await t.db.sql(`SELECT id, leader_run_id FROM workflow_digests WHERE workflow_id = 'bulky'`);
    await t.db.sql(`UPDATE workflow_digests SET closes_at = now() WHERE id = $1`, [digest.id]);
    await t.db.sql(
      `UPDATE workflow_runs SET run_at = now(), context = jsonb_set(context, '{digest,closesAt}', to_jsonb(now() - interval '1 second')) WHERE id = $1`,
      [digest.leader_run_id],
    );
    await engine.drainOnce();
    const [job] = await t.db.sql(`SELECT payload FROM jobs`);
    expect(job.payload.vars.item_count).toBe(5);
    // 300 kB each: three fit in 1 MB, the fourth would not.
    expect(job.payload.vars.items).toHaveLength(3);
  });

  it('a throttle or digest key longer than an index row takes still throttles and digests (it failed every retry)', async () => {
    // 8 000 hex characters: incompressible, well past btree's ~2.7 kB row limit.
    const [long, other] = [randomBytes(4_000).toString('hex'), randomBytes(4_000).toString('hex')];
    const throttled = await app.define('calm', [
      { type: 'throttle', window_secs: 3600, limit: 1, key: 'payload.k' },
      { type: 'send', channel: 'sms', body: 'x' },
    ]);
    const digested = await app.define('batch', [
      { type: 'digest', window_secs: 3600, key: 'payload.k', channel: 'sms', body: '{{item_count}}' },
    ]);
    for (const k of [long, long, other]) await trigger(throttled, { k });
    for (const k of [long, long]) await trigger(digested, { k });
    await engine.drainOnce();
    const runs = await t.db.sql(
      `SELECT workflow_id, status, outcome, errors FROM workflow_runs WHERE workflow_id IN ('calm', 'batch')`,
    );
    expect(runs.filter((r) => r.errors > 0)).toEqual([]);
    const outcomes = (id: string) =>
      runs
        .filter((r) => r.workflow_id === id)
        .map((r) => `${r.status} ${r.outcome?.replace(/run \S+/, 'run …')}`)
        .sort();
    expect(outcomes('calm')).toEqual(['completed completed', 'completed completed', 'completed throttled']);
    expect(outcomes('batch')).toEqual(['completed digested into run …', 'waiting undefined']);
    const keys = await t.db.sql(`SELECT digest_key FROM workflow_digests WHERE workflow_id = 'batch'`);
    expect(keys.map((k) => k.digest_key)).toEqual([expect.stringMatching(/^sha256:[0-9a-f]{64}$/)]);
  });

  it('a project has at most MAX_WORKFLOWS_PER_PROJECT workflows; replacing one at the limit still works', async () => {
    const owner = await t.createProject();
    const steps = [{ type: 'send', channel: 'sms', body: 'x' }];
    // All but one stored directly (a thousand POSTs would only slow the test), all on one event.
    await t.db.sql(
      `INSERT INTO workflows (project_id, id, name, trigger_event, steps)
       SELECT $1, 'w' || n, 'w' || n, 'fan.out', $2::jsonb FROM generate_series(1, $3::int) n`,
      [owner.id, JSON.stringify(steps), MAX_WORKFLOWS_PER_PROJECT - 1],
    );
    const post = (id: string) =>
      t.http.post('/v1/workflows').set('X-Api-Key', owner.key).send({ id, name: id, trigger_event: 'fan.out', steps });
    expect((await post('last')).status).toBe(200);
    const refused = await post('one-more');
    expect([refused.status, refused.body.error]).toEqual([422, 'too_many_workflows']);
    expect(refused.body.message).toContain(`at most ${MAX_WORKFLOWS_PER_PROJECT} workflows`);
    const replaced = await post('w1');
    expect([replaced.status, replaced.body.created]).toEqual([200, false]);
    const [{ count }] = await t.db.sql(`SELECT count(*)::int AS count FROM workflows WHERE project_id = $1`, [
      owner.id,
    ]);
    expect(count).toBe(MAX_WORKFLOWS_PER_PROJECT);
    await t.db.sql(`DELETE FROM workflows WHERE project_id = $1`, [owner.id]);
  });

  it('retention purges closed digests with their items and spent throttle counters, as it purges runs', async () => {
    await app.define('kept', [
      { type: 'throttle', window_secs: 60, key: 'payload.k' },
      { type: 'digest', window_secs: 60, channel: 'sms', body: 'x' },
    ]);
    const leader = '00000000-0000-4000-8000-000000000001';
    const digest = (status: string, closedDaysAgo: number | null, key: string) =>
      t.db.sql(
        `INSERT INTO workflow_digests (project_id, workflow_id, step_index, subscriber_id, digest_key, status, leader_run_id, opened_at, closes_at, closed_at)
         VALUES ($1, 'kept', 1, 'u1', $2, $3, $4, now() - interval '60 days', now() - interval '59 days',
                 CASE WHEN $5::int IS NULL THEN NULL ELSE now() - make_interval(days => $5::int) END)
         RETURNING id`,
        [project.id, key, status, leader, closedDaysAgo],
      );
    const [[old], [cancelled], [recent], [open]] = [
      await digest('closed', 40, 'a'),
      await digest('cancelled', 40, 'b'),
      await digest('closed', 1, 'c'),
      await digest('open', null, 'd'),
    ];
    for (const d of [old, recent, open])
      await t.db.sql(`INSERT INTO workflow_digest_items (digest_id, run_id, payload) VALUES ($1, $2, '{"n": 1}')`, [
        d.id,
        leader,
      ]);
    await t.db.sql(
      `INSERT INTO workflow_throttles (project_id, workflow_id, step_index, subscriber_id, throttle_key, window_start, count)
       VALUES ($1, 'kept', 0, 'u1', 'spent', now() - interval '40 days', 3), ($1, 'kept', 0, 'u1', 'live', now(), 1)`,
      [project.id],
    );
    await engine.maintain();
    const digests = await t.db.sql(`SELECT id FROM workflow_digests WHERE workflow_id = 'kept' ORDER BY digest_key`);
    expect(digests.map((d) => d.id)).toEqual([recent.id, open.id]);
    const items = await t.db.sql(`SELECT digest_id FROM workflow_digest_items WHERE digest_id = ANY($1::uuid[])`, [
      [old.id, cancelled.id, recent.id, open.id],
    ]);
    expect(items.map((i) => i.digest_id).sort()).toEqual([recent.id, open.id].sort());
    const throttles = await t.db.sql(`SELECT throttle_key FROM workflow_throttles WHERE workflow_id = 'kept'`);
    expect(throttles.map((r) => r.throttle_key)).toEqual(['live']);
  });
});

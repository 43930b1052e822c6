import { WorkflowVersions1764460800092 } from '../migrations/0092-workflow-versions.js';
import type { WorkflowEngine } from '../src/workflows/engine/workflow-engine.js';
import type { RecordingConnector } from './helpers/recording-connector.js';
import type { TestApp } from './helpers/test-app.js';
import { createTestDatabase } from './helpers/test-database.js';
import { startWorkflowApp, type WorkflowApp } from './helpers/workflow-app.js';

/** Runs record the immutable version of the steps they started with: one copy per edit, not one per run. */
describe('workflow versions', () => {
  let t: TestApp;
  let engine: WorkflowEngine;
  let provider: RecordingConnector;
  let project: { id: string; key: string };
  let app: WorkflowApp;
  const SUBSCRIBERS = 20;

  beforeAll(async () => {
    ({ t, engine, provider, project } = app = await startWorkflowApp());
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const res = await t.http
        .post('/v1/subscribers')
        .set('X-Api-Key', project.key)
        .send({ id: `v${i}`, phone: `+336100000${String(i).padStart(2, '0')}` });
      expect(res.status).toBe(200);
    }
  });
  afterAll(() => t?.close());
  beforeEach(() => app.reset());

  const trigger = async (event: string, subscriber: string) => {
    const res = await t.http
      .post('/v1/workflows/trigger')
      .set('X-Api-Key', project.key)
      .send({ event, subscriber_id: subscriber });
    expect(res.status).toBe(200);
    return res.body.workflow_runs as string[];
  };
  const run = async (id: string) =>
    (await t.http.get(`/v1/workflows/runs/${id}`).set('X-Api-Key', project.key)).body.run;
  const versions = async (workflowId: string) =>
    (
      await t.db.sql(
        `SELECT v.id::text AS id FROM workflow_versions v WHERE project_id = $1 AND workflow_id = $2 ORDER BY v.id`,
        [project.id, workflowId],
      )
    ).map((v) => v.id as string);

  it('a trigger for N subscribers writes one copy of the steps: N runs reference one version', async () => {
    const event = await app.define('fanout', [{ type: 'send', channel: 'sms', body: 'Hello {{subscriber.id}}' }]);
    const runs: string[] = [];
    for (let i = 0; i < SUBSCRIBERS; i++) runs.push(...(await trigger(event, `v${i}`)));
    expect(runs).toHaveLength(SUBSCRIBERS);

    // One copy: no run holds the steps (before versions, each run held a copy of them)...
    const [stored] = await t.db.sql(
      `SELECT count(*)::int AS runs, count(steps)::int AS copies FROM workflow_runs WHERE workflow_id = 'fanout'`,
    );
    expect(stored).toEqual({ runs: SUBSCRIBERS, copies: 0 });
    // ...they all reference the one version, the workflow's current one.
    const [referenced] = await t.db.sql(
      `SELECT count(DISTINCT version_id)::int AS versions FROM workflow_runs WHERE workflow_id = 'fanout'`,
    );
    expect(referenced.versions).toBe(1);
    const [version] = await versions('fanout');
    const [workflow] = await t.db.sql(`SELECT version_id::text AS v FROM workflows WHERE id = 'fanout'`);
    expect(workflow.v).toBe(version);
    expect(await versions('fanout')).toHaveLength(1);

    // The runs run their version's steps.
    expect(await engine.drainOnce()).toBe(SUBSCRIBERS);
    await t.worker.drainOnce();
    expect(provider.messages).toHaveLength(SUBSCRIBERS);
    expect((await run(runs[0])).status).toBe('completed');
  });

  it('replacing the steps makes a new version; the same steps keep it', async () => {
    const steps = [{ type: 'send', channel: 'sms', body: 'one' }];
    await app.define('edits', steps);
    const [first] = await versions('edits');
    await app.define('edits', steps);
    expect(await versions('edits')).toEqual([first]);
    await app.define('edits', [{ type: 'send', channel: 'sms', body: 'two' }]);
    const all = await versions('edits');
    expect(all).toHaveLength(2);
    const [workflow] = await t.db.sql(`SELECT version_id::text AS v FROM workflows WHERE id = 'edits'`);
    expect(workflow.v).toBe(all[1]);
    const got = await t.http.get('/v1/workflows/edits').set('X-Api-Key', project.key);
    expect(got.body.workflow.steps).toEqual([expect.objectContaining({ body: 'two' })]);
  });

  it('a workflow written by SQL (as the 0.x importer writes them) is versioned too', async () => {
    const steps = (body: string) => JSON.stringify([{ type: 'send', channel: 'sms', body }]);
    await t.db.sql(
      `INSERT INTO workflows (project_id, id, name, trigger_event, steps) VALUES ($1, 'bysql', 'bysql', 'bysql.happened', $2)`,
      [project.id, steps('one')],
    );
    const [first] = await versions('bysql');
    expect(first).toBeDefined();
    await t.db.sql(`UPDATE workflows SET name = 'renamed', steps = $1 WHERE id = 'bysql'`, [steps('one')]);
    expect(await versions('bysql')).toEqual([first]);
    await t.db.sql(`UPDATE workflows SET steps = $1 WHERE id = 'bysql'`, [steps('two')]);
    const [w] = await t.db.sql(
      `SELECT v.steps->0->>'body' AS body FROM workflows w JOIN workflow_versions v ON v.id = w.version_id WHERE w.id = 'bysql'`,
    );
    expect(w.body).toBe('two');
    const [id] = await trigger('bysql.happened', 'v3');
    expect(await engine.drainOnce()).toBe(1);
    await t.worker.drainOnce();
    expect(provider.messages.map((m) => m.body)).toEqual(['two']);
    expect((await run(id)).status).toBe('completed');
  });

  it('replacing a workflow mid-run leaves running runs on the steps they started with', async () => {
    const event = await app.define('midrun', [
      { type: 'delay', duration_secs: 60 },
      { type: 'send', channel: 'sms', body: 'old steps' },
    ]);
    const [before] = await trigger(event, 'v0');
    expect(await engine.drainOnce()).toBe(1);
    expect((await run(before)).status).toBe('waiting');

    await app.define('midrun', [{ type: 'send', channel: 'sms', body: 'new steps' }]);
    const [after] = await trigger(event, 'v1');
    await t.db.sql(`UPDATE workflow_runs SET run_at = now() WHERE status = 'waiting'`);
    expect(await engine.drainOnce()).toBe(2);
    await t.worker.drainOnce();
    expect(provider.messages.map((m) => m.body).sort()).toEqual(['new steps', 'old steps']);
    expect([(await run(before)).status, (await run(after)).status]).toEqual(['completed', 'completed']);
  });

  it('a run started before versions runs its own copy of the steps', async () => {
    const event = await app.define('legacy', [{ type: 'send', channel: 'sms', body: 'current' }]);
    const [id] = await trigger(event, 'v2');
    // As migration 0092 leaves a run that started before it: its own copy, no version.
    await t.db.sql(
      `UPDATE workflow_runs SET version_id = NULL, steps = '[{"type":"send","channel":"sms","body":"copied"}]' WHERE id = $1`,
      [id],
    );
    expect(await engine.drainOnce()).toBe(1);
    await t.worker.drainOnce();
    expect(provider.messages.map((m) => m.body)).toEqual(['copied']);
  });

  it('maintenance prunes versions no workflow or run reads, keeps the current one and those runs read', async () => {
    const event = await app.define('pruned', [
      { type: 'delay', duration_secs: 60 },
      { type: 'send', channel: 'sms', body: 'v1' },
    ]);
    const [running] = await trigger(event, 'v0');
    await app.define('pruned', [{ type: 'send', channel: 'sms', body: 'v2' }]);
    await app.define('pruned', [{ type: 'send', channel: 'sms', body: 'v3' }]);
    await app.define('pruned', [{ type: 'send', channel: 'sms', body: 'v4' }]);
    const all = await versions('pruned');
    expect(all).toHaveLength(4);
    const [v1, , v3, v4] = all;
    const [finished] = await t.db.sql(
      `INSERT INTO workflow_runs (project_id, workflow_id, subscriber_id, trigger_event, version_id, status, finished_at)
       VALUES ($1, 'pruned', 'v1', $2, $3, 'completed', now()) RETURNING id`,
      [project.id, event, v3],
    );

    // Superseded less than a minute ago: a trigger that read it as current may still be inserting its run.
    await engine.maintain();
    expect(await versions('pruned')).toEqual(all);
    await t.db.sql(
      `UPDATE workflow_versions SET created_at = created_at - interval '2 minutes' WHERE workflow_id = 'pruned'`,
    );

    await engine.maintain();
    // v1: a waiting run reads it; v3: a finished run retention keeps; v4: current. v2: nothing.
    expect(await versions('pruned')).toEqual([v1, v3, v4]);

    // Once its runs are gone, a version goes too.
    await t.db.sql(`DELETE FROM workflow_runs WHERE id = ANY($1::uuid[])`, [[running, finished.id]]);
    await engine.maintain();
    expect(await versions('pruned')).toEqual([v4]);
  });

  it('deleting a workflow deletes its versions with its runs', async () => {
    const event = await app.define('gone', [
      { type: 'delay', duration_secs: 60 },
      { type: 'send', channel: 'sms', body: 'a' },
    ]);
    await trigger(event, 'v0');
    await app.define('gone', [{ type: 'send', channel: 'sms', body: 'b' }]);
    await trigger(event, 'v1');
    const res = await t.http.delete('/v1/workflows/gone').set('X-Api-Key', project.key);
    expect(res.status).toBe(200);
    expect(await versions('gone')).toEqual([]);
    expect(await t.db.sql(`SELECT id FROM workflow_runs WHERE workflow_id = 'gone'`)).toEqual([]);
  });

  it('migration 0092 gives every workflow its first version, leaves runs their copy, and reverts', async () => {
    const db = await createTestDatabase(); // migrated: 0092 is applied
    const migration = new WorkflowVersions1764460800092();
    const q = { query: (sql: string) => db.sql(sql) } as unknown as Parameters<typeof migration.up>[0];
    try {
      await migration.down(q);
      await db.sql(`INSERT INTO projects (id, name) VALUES ('m', 'm')`);
      await db.sql(`INSERT INTO workflows (project_id, id, name, trigger_event, steps)
                    VALUES ('m', 'w', 'w', 'e', '[{"type":"send","channel":"sms","body":"x"}]')`);
      await db.sql(`INSERT INTO workflow_runs (project_id, workflow_id, subscriber_id, trigger_event, steps)
                    VALUES ('m', 'w', 's', 'e', '[{"type":"send","channel":"sms","body":"old"}]')`);
      await migration.up(q);
      const [w] = await db.sql(
        `SELECT v.steps FROM workflows w JOIN workflow_versions v ON v.id = w.version_id WHERE w.id = 'w'`,
      );
      expect(w.steps).toEqual([{ type: 'send', channel: 'sms', body: 'x' }]);
      const [old] = await db.sql(`SELECT version_id, steps FROM workflow_runs`);
      expect(old).toEqual({ version_id: null, steps: [{ type: 'send', channel: 'sms', body: 'old' }] });
      // A run of the new kind gets its copy back when the migration is reverted.
      await db.sql(`INSERT INTO workflow_runs (project_id, workflow_id, subscriber_id, trigger_event, version_id)
                    SELECT project_id, id, 't', 'e', version_id FROM workflows`);
      await migration.down(q);
      const runs = await db.sql(
        `SELECT subscriber_id, steps->0->>'body' AS body FROM workflow_runs ORDER BY subscriber_id`,
      );
      expect(runs).toEqual([
        { subscriber_id: 's', body: 'old' },
        { subscriber_id: 't', body: 'x' },
      ]);
    } finally {
      await db.drop();
    }
  });
});

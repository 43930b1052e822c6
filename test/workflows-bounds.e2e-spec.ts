import { RUN_HISTORY_KEPT } from '../src/workflows/engine/run-executor.js';
import { WorkflowEngine } from '../src/workflows/engine/workflow-engine.js';
import { RecordingConnector, RecordingConnectorModule } from './helpers/recording-connector.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** What one definition or many triggers can make a run grow to: history and digest items stay bounded. */
describe('workflow bounds', () => {
  let t: TestApp;
  let engine: WorkflowEngine;
  let provider: RecordingConnector;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { SMS_PROVIDER: 'recording' }, imports: [RecordingConnectorModule] });
    engine = t.notifyd.app.get(WorkflowEngine);
    provider = t.notifyd.app.get(RecordingConnector);
    project = await t.createProject();
    const res = await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'u1', phone: '+33600000001' });
    expect(res.status).toBe(200);
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    provider.reset();
    await t.db.sql(`DELETE FROM workflows`);
    await t.db.sql(`DELETE FROM jobs`);
  });

  const define = async (id: string, steps: unknown[]) => {
    const res = await t.http
      .post('/v1/workflows')
      .set('X-Api-Key', project.key)
      .send({ id, name: id, trigger_event: `${id}.happened`, steps });
    expect([res.status, res.body.message]).toEqual([200, undefined]);
    return `${id}.happened`;
  };
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
    const event = await define('forever', [
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
});

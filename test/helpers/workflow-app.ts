import { WorkflowEngine } from '../../src/workflows/engine/workflow-engine.js';
import { RecordingConnector, RecordingConnectorModule } from './recording-connector.js';
import { startTestApp, type TestApp } from './test-app.js';

/** The workflow specs' app: SMS through a recording connector, the engine to step runs by hand, one project. */
export interface WorkflowApp {
  t: TestApp;
  engine: WorkflowEngine;
  provider: RecordingConnector;
  project: { id: string; key: string };
  /** Creates or replaces workflow `id` through the API (expects 200); answers its trigger event, `<id>.happened` by default. */
  define(id: string, steps: unknown[], event?: string): Promise<string>;
  /** Between tests: nothing recorded, no workflows (nor their runs), no jobs. */
  reset(): Promise<void>;
}

export async function startWorkflowApp(): Promise<WorkflowApp> {
  const t = await startTestApp({ env: { SMS_PROVIDER: 'recording' }, imports: [RecordingConnectorModule] });
  const provider = t.notifyd.app.get(RecordingConnector);
  const project = await t.createProject();
  return {
    t,
    engine: t.notifyd.app.get(WorkflowEngine),
    provider,
    project,
    async define(id, steps, event = `${id}.happened`) {
      const res = await t.http
        .post('/v1/workflows')
        .set('X-Api-Key', project.key)
        .send({ id, name: id, trigger_event: event, steps });
      expect([res.status, res.body.message]).toEqual([200, undefined]);
      return event;
    },
    async reset() {
      provider.reset();
      await t.db.sql(`DELETE FROM workflows`);
      await t.db.sql(`DELETE FROM jobs`);
    },
  };
}

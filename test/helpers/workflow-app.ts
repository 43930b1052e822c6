import { WorkflowEngine } from '../../src/workflows/engine/workflow-engine.js';
import { RecordingConnector, RecordingConnectorModule } from './recording-connector.js';
import { startTestApp, type TestApp } from './test-app.js';

/** The workflow specs' app: SMS through a recording connector, the engine to step runs by hand, one project. */
export interface WorkflowApp {
  t: TestApp;
  engine: WorkflowEngine;
  provider: RecordingConnector;
  project: { id: string; key: string };
}

export async function startWorkflowApp(): Promise<WorkflowApp> {
  const t = await startTestApp({ env: { SMS_PROVIDER: 'recording' }, imports: [RecordingConnectorModule] });
  return {
    t,
    engine: t.notifyd.app.get(WorkflowEngine),
    provider: t.notifyd.app.get(RecordingConnector),
    project: await t.createProject(),
  };
}

import { Db, type Sql } from '../src/database/db.js';
import { SignalsService } from '../src/database/signals/signals.service.js';
import { TAKE_WAITED_JOBS } from '../src/jobs/wait/wait.sql.js';
import { McpToolRegistry } from '../src/mcp/mcp-tool-registry.js';
import { McpCallService } from '../src/mcp/server/mcp-call.service.js';
import { permanent, RecordingConnector, RecordingConnectorModule } from './helpers/recording-connector.js';
import { eventually, SignalTap } from './helpers/signal-tap.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ok = () => ({ ok: true as const, providerMessageId: `rec_${Math.random().toString(36).slice(2)}` });

/**
 * `wait`: a caller learns the provider's answer in the same request. The worker runs on one
 * replica (role all) and the caller talks to another (role api), so the answer must cross
 * replicas through job_waiters and the job.end signal (or the fallback poll).
 */
describe('wait for an outcome', () => {
  let worker: TestApp;
  let api: TestApp;
  let provider: RecordingConnector;
  let project: { id: string; key: string };
  let tap: SignalTap;

  beforeAll(async () => {
    const env = { SMS_PROVIDER: 'recording', WORKER_POLL_INTERVAL_MS: '60000' };
    worker = await startTestApp({ env: { ...env, NOTIFYD_ROLE: 'all' }, imports: [RecordingConnectorModule] });
    api = await startTestApp({ database: worker.db, env, imports: [RecordingConnectorModule] });
    provider = worker.notifyd.app.get(RecordingConnector);
    project = await api.createProject();
    tap = await SignalTap.open(worker.db.url);
    await eventually(
      async () =>
        (worker.notifyd.app.get(SignalsService).listening && api.notifyd.app.get(SignalsService).listening) ||
        undefined,
    );
  });
  afterAll(async () => {
    await tap.close();
    await api.close();
    await worker.close();
  });
  beforeEach(() => {
    provider.reset();
    tap.clear();
  });

  const send = (body: Record<string, unknown>) =>
    api.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], to: '+33600000001', body: 'hi', ...body });

  it('returns the provider’s answer for a fast provider, woken by a job.end signal', async () => {
    const res = await send({ wait: '10s' });
    expect(res.status).toBe(200);
    const id = res.body.job_ids[0];
    expect(res.body.timed_out).toBe(false);
    expect(res.body.outcomes).toEqual([
      expect.objectContaining({
        id,
        channel: 'sms',
        status: 'sent',
        final: true,
        attempts: 1,
        provider: 'recording',
        error: null,
      }),
    ]);
    expect(res.body.outcomes[0].provider_message_id).toMatch(/^rec_/);
    await tap.waitFor((p) => p === `job.end:${id}`);
    // The registration is taken by the worker when it signals.
    expect(await worker.db.sql(`SELECT * FROM job_waiters WHERE job_id = $1`, [id])).toEqual([]);
  });

  it('returns a permanent refusal with the provider’s error in the same call', async () => {
    provider.script = () => permanent('HTTP 422: +33600000009 is not a mobile number');
    const res = await send({ to: '+33600000009', wait: '10s' });
    expect(res.status).toBe(200);
    expect(res.body.timed_out).toBe(false);
    expect(res.body.outcomes[0]).toMatchObject({
      status: 'failed',
      final: true,
      error: 'HTTP 422: +33600000009 is not a mobile number',
    });
  });

  it('times out for a slow provider with the job still pending and its id; GET ?wait= then long-polls to the end', async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    provider.script = async () => {
      await released;
      return ok();
    };
    const res = await send({ wait: '300ms' });
    expect(res.status).toBe(200);
    const id = res.body.job_ids[0];
    expect(res.body.timed_out).toBe(true);
    expect(res.body.outcomes).toEqual([expect.objectContaining({ id, final: false })]);
    expect(['pending', 'processing']).toContain(res.body.outcomes[0].status);

    const poll = api.http.get(`/v1/jobs/${id}?wait=10s`).set('X-Api-Key', project.key);
    const answered = poll.then((r) => r);
    await sleep(300);
    release();
    const job = await answered;
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ id, status: 'sent', provider: 'recording' });
  });

  it('GET ?wait= answers at the deadline with the job as it is when nothing happens', async () => {
    const res = await send({ scheduled_at: new Date(Date.now() + 3_600_000).toISOString() });
    const id = res.body.job_ids[0];
    const job = await api.http.get(`/v1/jobs/${id}?wait=200ms`).set('X-Api-Key', project.key);
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ id, status: 'pending' });
  });

  it('sends no job.end signal for jobs nobody waits on, and does not send their ids to look for waiters', async () => {
    // Record the worker's take of registrations (the batch's ids) while nobody waits.
    const db = worker.notifyd.app.get(Db);
    const rows = db.rows.bind(db);
    const takes: unknown[][] = [];
    db.rows = ((sql: Sql, params?: unknown[], runner?: Parameters<Db['rows']>[2]) => {
      if (sql === TAKE_WAITED_JOBS) takes.push(params ?? []);
      return rows(sql, params, runner);
    }) as Db['rows'];
    // Earlier tests' requests that timed out leave registrations live until their deadline.
    await worker.db.sql(`DELETE FROM job_waiters`);
    try {
      const res = await send({});
      const id = res.body.job_ids[0];
      await eventually(async () =>
        (await worker.db.sql(`SELECT 1 FROM jobs WHERE id = $1 AND status = 'sent'`, [id])).length ? true : undefined,
      );
      await tap.waitFor((p) => p === 'jobs.due:sms');
      await worker.notifyd.app.get(SignalsService).flush();
      await sleep(100);
      expect(tap.matching('job.end:')).toEqual([]);
      expect(takes).toEqual([]);

      // With somebody waiting, even for another job, the take runs with the batch's ids.
      await worker.db.sql(
        `INSERT INTO job_waiters (job_id, until) VALUES (gen_random_uuid(), now() + interval '1 minute')`,
      );
      const next = (await send({})).body.job_ids[0];
      await eventually(async () => (takes.length ? true : undefined));
      expect(takes).toEqual([[[next]]]);
    } finally {
      db.rows = rows;
    }
  });

  it('refuses a bad wait with a 422 that says what to write, and keeps other projects’ jobs a 404', async () => {
    for (const wait of ['forever', '31s', '10', 10]) {
      const res = await send({ wait });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/wait must be a duration such as 10s or 500ms, at most 30s/);
    }
    const bad = await api.http
      .get(`/v1/jobs/6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f?wait=soon`)
      .set('X-Api-Key', project.key);
    expect(bad.status).toBe(422);

    const mine = (await send({ scheduled_at: new Date(Date.now() + 3_600_000).toISOString() })).body.job_ids[0];
    const other = await api.createProject();
    const res = await api.http.get(`/v1/jobs/${mine}?wait=5s`).set('X-Api-Key', other.key);
    expect(res.status).toBe(404);
  });

  it('the send MCP tool sends and returns the provider’s answer in one call', async () => {
    const tool = api.notifyd.app.get(McpToolRegistry).get('send')!;
    expect(tool.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    const calls = api.notifyd.app.get(McpCallService);
    const caller = { role: 'admin' as const, projectId: null, transport: 'stdio' as const };
    const result = await calls.call(
      'send',
      { project_id: project.id, channels: ['sms'], to: '+33600000004', body: 'from an agent', wait: '10s' },
      caller,
    );
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      timed_out: false,
      outcomes: [{ status: 'sent', final: true, provider: 'recording' }],
    });
    expect(
      (result.structuredContent as { outcomes: { provider_message_id: string }[] }).outcomes[0].provider_message_id,
    ).toMatch(/^rec_/);

    const refused = await calls.call(
      'send',
      { project_id: project.id, channels: ['sms'], to: '+33600000004', body: 'x', wait: '2m' },
      caller,
    );
    expect(refused).toMatchObject({ isError: true });
    expect((refused.content[0] as { text: string }).text).toMatch(/wait: must be a duration/);
  });
});

describe('wait with SIGNALS_ENABLED=false', () => {
  let t: TestApp;
  let tap: SignalTap;

  beforeAll(async () => {
    t = await startTestApp({
      env: { SMS_PROVIDER: 'recording', NOTIFYD_ROLE: 'all', SIGNALS_ENABLED: 'false', WORKER_POLL_INTERVAL_MS: '100' },
      imports: [RecordingConnectorModule],
    });
    tap = await SignalTap.open(t.db.url);
  });
  afterAll(async () => {
    await tap.close();
    await t.close();
  });

  it('still answers by polling, and never sends a NOTIFY', async () => {
    const project = await t.createProject();
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], to: '+33600000005', body: 'hi', wait: '10s' });
    expect(res.status).toBe(200);
    expect(res.body.outcomes[0]).toMatchObject({ status: 'sent', final: true });
    await sleep(100);
    expect(tap.payloads).toEqual([]);
    expect(await t.db.sql(`SELECT * FROM job_waiters`)).toEqual([]);
    expect(t.notifyd.app.get(SignalsService).stats()).toMatchObject({ flushes: 0, listening: false, connections: 0 });
  });
});

import { jobRow, projectApi } from '../helpers/project-api.js';
import { RecordingConnector, RecordingConnectorModule } from '../helpers/recording-connector.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * One tenant template must not freeze the process. liquidjs checks renderLimit only between
 * nodes, so a single output tag that runs a filter over a huge range (`has_exp` below, 43
 * bytes) ran synchronously for seconds on the main thread: /v1/health stalled for everyone.
 * Renders now run in worker threads with a hard timeout; these tests measure the event loop
 * from outside while such a render runs.
 */
describe('security: a tenant template cannot block the process', () => {
  /**
   * Far below the stall (seconds), far above an ordinary render even on a loaded machine (the
   * time a busy machine takes to schedule the render thread counts against the limit).
   */
  const LIMIT_MS = 1_000;
  /** Seconds of synchronous work in one filter call (about 3 s on a quiet 2-core machine). */
  const STALL = '{{ (1..1000000) | has_exp: "x", "x == 0" }}';
  let t: TestApp;
  let sms: RecordingConnector;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: { SMS_PROVIDER: 'recording', TEMPLATE_RENDER_LIMIT_MS: String(LIMIT_MS) },
      imports: [RecordingConnectorModule],
    });
    sms = t.notifyd.app.get(RecordingConnector);
    project = await t.createProject();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    sms.reset();
    await t.db.sql(`DELETE FROM jobs`);
    await t.db.sql(`DELETE FROM templates`);
  });

  const api = () => projectApi(t, project.key);
  const save = async (body: object) => expect((await api().post('/v1/templates', body)).status).toBe(200);

  /**
   * Calls /v1/health every 50 ms (or as soon as the previous answer is in) until `work`
   * settles, at least 1 s; returns the worst delay between when a call was due and its answer.
   * A blocked event loop delays the timer, the request or the answer: any of them counts.
   */
  async function worstHealthDelay(work: Promise<unknown>): Promise<number> {
    let settled = false;
    void work.finally(() => (settled = true)).catch(() => undefined);
    const start = performance.now();
    let worst = 0;
    let answered = start;
    for (let k = 1; !settled || performance.now() - start < 1_000; k++) {
      const due = Math.max(start + k * 50, answered);
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      const res = await t.http.get('/v1/health');
      expect(res.status).toBe(200);
      answered = performance.now();
      worst = Math.max(worst, answered - due);
    }
    return worst;
  }

  it('preview of a template that stalls inside one filter fails fast with a 422 naming the limit, and /v1/health keeps answering', async () => {
    await save({ id: 'stall', channel: 'sms', body: STALL });
    const started = performance.now();
    const preview = Promise.resolve(api().post('/v1/templates/stall/preview', {}));
    const worst = await worstHealthDelay(preview);
    const res = await preview;
    // A correctness bound far above normal (the render runs off the main thread), not a speed test.
    expect(worst).toBeLessThan(1_000);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('template_render_failed');
    expect(res.body.message).toMatch(/^body failed to render: stopped after TEMPLATE_RENDER_LIMIT_MS \(1000 ms\)/);

    // The pool recovered: the next preview renders.
    await save({ id: 'ok', channel: 'sms', body: 'Hi {{ name }}' });
    expect((await api().post('/v1/templates/ok/preview', { vars: { name: 'Jane' } })).body.body).toBe('Hi Jane');
  });

  it('a send whose stored template stalls fails that job only; the rest of the batch is sent, and /v1/health keeps answering', async () => {
    await save({ id: 'fine', channel: 'sms', body: 'fine {{ n }}' });
    await save({ id: 'stall', channel: 'sms', body: 'ok for now' });
    const good1 = await api().post('/v1/send', {
      channel: 'sms',
      to: '+33600000101',
      template: 'fine',
      vars: { n: 1 },
    });
    const bad1 = await api().post('/v1/send', {
      channel: 'sms',
      to: '+33600000102',
      template: 'stall',
      vars: { n: 1 },
    });
    const bad2 = await api().post('/v1/send', {
      channel: 'sms',
      to: '+33600000103',
      template: 'stall',
      vars: { n: 2 },
    });
    const good2 = await api().post('/v1/send', {
      channel: 'sms',
      to: '+33600000104',
      template: 'fine',
      vars: { n: 2 },
    });
    // Edited after the sends were queued: the worker renders what is stored when it claims them.
    await t.db.sql(`UPDATE templates SET body = $1 WHERE id = 'stall'`, [STALL]);

    const drained = t.worker.drainOnce();
    const worst = await worstHealthDelay(drained);
    expect(await drained).toBe(4);
    expect(worst).toBeLessThan(1_000);

    for (const bad of [bad1, bad2]) {
      const row = await jobRow(t, bad.body.job_ids[0]);
      expect(row.status).toBe('failed');
      expect(row.attempts).toBe(1);
      expect(row.error).toMatch(
        /^template 'stall' \(sms\): body failed to render: stopped after TEMPLATE_RENDER_LIMIT_MS \(1000 ms\)/,
      );
    }
    expect((await jobRow(t, good1.body.job_ids[0])).status).toBe('sent');
    expect((await jobRow(t, good2.body.job_ids[0])).status).toBe('sent');
    expect(sms.messages.map((m) => m.body).sort()).toEqual(['fine 1', 'fine 2']);
  });
});

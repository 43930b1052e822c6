import { MAX_TRIGGERED_RUNS } from '../src/workflows/workflow-steps.js';
import type { WorkflowEngine } from '../src/workflows/engine/workflow-engine.js';
import type { RecordingConnector } from './helpers/recording-connector.js';
import type { TestApp } from './helpers/test-app.js';
import { startWorkflowApp, type WorkflowApp } from './helpers/workflow-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The step kinds added for notifyd 0.x parity: template steps, delay_until, trigger_workflow. */
describe('workflow steps: templates, delay_until, trigger_workflow', () => {
  let t: TestApp;
  let engine: WorkflowEngine;
  let provider: RecordingConnector;
  let project: { id: string; key: string };
  let app: WorkflowApp;

  beforeAll(async () => {
    ({ t, engine, provider, project } = app = await startWorkflowApp());
    for (const [id, phone, locale] of [
      ['ana', '+33600000001', 'es-MX'],
      ['luc', '+33600000002', 'fr'],
      ['kai', '+33600000003', 'de'],
    ]) {
      expect((await api('/v1/subscribers', { id, phone, locale })).status).toBe(200);
    }
    for (const variant of [
      { id: 'greet', channel: 'sms', body: 'Hello {{name}}' },
      { id: 'greet', channel: 'sms', locale: 'es', body: 'Hola {{name}}' },
      { id: 'greet', channel: 'sms', locale: 'fr', body: 'Bonjour {{name}}' },
      { id: 'roll', channel: 'sms', body: '{{item_count}} updates' },
      { id: 'roll', channel: 'sms', locale: 'es', body: '{{item_count}} novedades' },
      { id: 'mail-only', channel: 'email', subject: 'x', body: 'x' },
    ]) {
      expect((await api('/v1/templates', variant)).status).toBeLessThan(300);
    }
  });
  afterAll(() => t?.close());
  beforeEach(() => app.reset());

  function api(path: string, body: object) {
    return t.http.post(path).set('X-Api-Key', project.key).send(body);
  }
  const upsert = (id: string, steps: unknown[]) =>
    api('/v1/workflows', { id, name: id, trigger_event: `${id}.happened`, steps });
  const trigger = async (event: string, subscriber: string, payload: Record<string, unknown> = {}) => {
    const res = await api('/v1/workflows/trigger', { event, subscriber_id: subscriber, payload });
    expect(res.status).toBe(200);
    return res.body.workflow_runs as string[];
  };
  const run = async (id: string) =>
    (await t.http.get(`/v1/workflows/runs/${id}`).set('X-Api-Key', project.key)).body.run;
  const runsOf = (workflowId: string) =>
    t.db.sql(`SELECT id, status, payload, context FROM workflow_runs WHERE workflow_id = $1 ORDER BY created_at`, [
      workflowId,
    ]);
  const bodies = () => provider.messages.map((m) => `${m.recipient} ${m.body}`).sort();
  /** The engine died after the pass's side effects, before recording the run: hand it out again as it stood. */
  const crashedBefore = async (runId: string, state: { current_step: number; context: unknown; history: unknown }) =>
    t.db.sql(
      `UPDATE workflow_runs SET status = 'pending', run_at = now(), finished_at = NULL, outcome = NULL, current_step = $2, context = $3, history = $4 WHERE id = $1`,
      [runId, state.current_step, JSON.stringify(state.context), JSON.stringify(state.history)],
    );
  const stateOf = async (runId: string) =>
    (await t.db.sql(`SELECT current_step, context, history FROM workflow_runs WHERE id = $1`, [runId]))[0] as {
      current_step: number;
      context: unknown;
      history: unknown;
    };

  describe('send and digest steps naming a stored template', () => {
    it('render the template in the subscriber’s locale, falling back es-MX → es and de → default, as single sends do', async () => {
      const event = await app.define('welcome', [{ type: 'send', channel: 'sms', template_id: 'greet' }]);
      for (const [who, name] of [
        ['ana', 'Ana'],
        ['luc', 'Luc'],
        ['kai', 'Kai'],
      ])
        await trigger(event, who, { name });
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(bodies()).toEqual(['+33600000001 Hola Ana', '+33600000002 Bonjour Luc', '+33600000003 Hello Kai']);
      // The step follows later edits of the template: it is rendered at send time, not copied.
      expect(
        (await api('/v1/templates', { id: 'greet', channel: 'sms', locale: 'fr', body: 'Salut {{name}}' })).status,
      ).toBeLessThan(300);
      provider.reset();
      await trigger(event, 'luc', { name: 'Luc' });
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(bodies()).toEqual(['+33600000002 Salut Luc']);
      await api('/v1/templates', { id: 'greet', channel: 'sms', locale: 'fr', body: 'Bonjour {{name}}' });
    });

    it('a digest step renders its template with item_count in the leader’s locale', async () => {
      const event = await app.define('activity', [
        { type: 'digest', window_secs: 1, channel: 'sms', template_id: 'roll' },
      ]);
      for (let n = 0; n < 3; n++) await trigger(event, 'ana', { n });
      await engine.drainOnce();
      await sleep(1_100);
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(bodies()).toEqual(['+33600000001 3 novedades']);
    });

    it('a template with no variant for the channel needs inline content to fall back on; one deleted since is a skipped step', async () => {
      const refused = await upsert('nope', [{ type: 'send', channel: 'sms', template_id: 'mail-only' }]);
      expect([refused.status, refused.body.problems]).toEqual([
        422,
        [expect.stringMatching(/^steps\[0\]\.template_id: template 'mail-only' has no sms variant/)],
      ]);
      const event = await app.define('fallback', [
        { type: 'send', channel: 'sms', template_id: 'mail-only', body: 'inline for {{name}}' },
      ]);
      await trigger(event, 'kai', { name: 'Kai' });
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(bodies()).toEqual(['+33600000003 inline for Kai']);

      await api('/v1/templates', { id: 'gone', channel: 'sms', body: 'soon gone' });
      const goneEvent = await app.define('gone', [
        { type: 'send', channel: 'sms', template_id: 'gone' },
        { type: 'send', channel: 'sms', body: 'still here' },
      ]);
      expect((await t.http.delete('/v1/templates/gone').set('X-Api-Key', project.key)).status).toBe(200);
      provider.reset();
      const [id] = await trigger(goneEvent, 'kai');
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(bodies()).toEqual(['+33600000003 still here']);
      expect((await run(id)).history[0]).toMatchObject({
        type: 'send',
        result: 'skipped',
        detail: expect.stringContaining("template 'gone' does not exist"),
      });
    });
  });

  describe('delay_until', () => {
    it('waits until an absolute time, then sends; a run handed out again after a crash sends once', async () => {
      const until = new Date(Date.now() + 2 * HOUR).toISOString();
      const event = await app.define('launch', [
        { type: 'delay_until', until },
        { type: 'send', channel: 'sms', body: 'launched' },
      ]);
      const [id] = await trigger(event, 'kai');
      await engine.drainOnce();
      const waiting = await run(id);
      expect(waiting).toMatchObject({ status: 'waiting', current_step: 1, resume_at: until });
      expect(waiting.history).toEqual([
        expect.objectContaining({ step: 0, type: 'delay_until', result: 'waiting', detail: `until ${until}` }),
      ]);
      expect(await engine.drainOnce()).toBe(0);

      const before = await stateOf(id);
      await t.db.sql(`UPDATE workflow_runs SET run_at = now() WHERE id = $1`, [id]);
      await engine.drainOnce();
      await crashedBefore(id, before);
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(bodies()).toEqual(['+33600000003 launched']);
      expect((await run(id)).status).toBe('completed');
    });

    it('reads the time from the payload, with offset_secs; a past time goes on at once; a missing or far one fails the run naming the field', async () => {
      const event = await app.define('reminder', [
        { type: 'delay_until', field: 'payload.appointment.at', offset_secs: -86_400 },
        { type: 'send', channel: 'sms', body: 'See you at {{appointment.at}}' },
      ]);
      const at = new Date(Date.now() + 3 * DAY);
      const [future] = await trigger(event, 'kai', { appointment: { at: at.toISOString() } });
      const [past] = await trigger(event, 'luc', { appointment: { at: '2020-01-01T09:00:00+01:00' } });
      const [missing] = await trigger(event, 'ana', { appointment: {} });
      const [far] = await trigger(event, 'ana', {
        appointment: { at: new Date(Date.now() + 400 * DAY).toISOString() },
      });
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(await run(future)).toMatchObject({
        status: 'waiting',
        resume_at: new Date(at.getTime() - DAY).toISOString(),
      });
      expect(await run(past)).toMatchObject({
        status: 'completed',
        history: [expect.objectContaining({ result: 'passed' }), expect.objectContaining({ result: 'sent' })],
      });
      expect(bodies()).toEqual(['+33600000002 See you at 2020-01-01T09:00:00+01:00']);
      expect(await run(missing)).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/^delay_until: payload\.appointment\.at is missing, not an RFC 3339 date-time/),
      });
      expect(await run(far)).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/^delay_until: payload\.appointment\.at is .* more than 365 days ahead/),
      });
    });
  });

  describe('trigger_workflow', () => {
    it('starts the other workflow’s run for the same subscriber with a mapped payload, once even after a crash', async () => {
      await app.define('child', [{ type: 'send', channel: 'sms', body: 'child got {{order}} / {{plan}}' }]);
      const event = await app.define('parent', [
        { type: 'send', channel: 'sms', body: 'parent' },
        {
          type: 'trigger_workflow',
          workflow_id: 'child',
          payload_map: { order: 'payload.order.id', plan: 'subscriber.locale' },
        },
      ]);
      const [parentId] = await trigger(event, 'ana', { order: { id: 'A-1' }, secret: 'not passed' });
      const before = await stateOf(parentId);
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(bodies()).toEqual(['+33600000001 child got A-1 / es-MX', '+33600000001 parent']);
      const parent = await run(parentId);
      expect(parent.status).toBe('completed');
      const started = parent.history[1];
      expect(started).toMatchObject({
        step: 1,
        type: 'trigger_workflow',
        result: 'started',
        run_id: expect.any(String),
        detail: 'workflow child',
      });
      const child = await run(started.run_id);
      expect(child).toMatchObject({
        workflow_id: 'child',
        subscriber_id: 'ana',
        status: 'completed',
        payload: { order: 'A-1', plan: 'es-MX' },
        triggered_by: { run_id: parentId, workflow_id: 'parent', depth: 1 },
      });

      // The engine died after the trigger step started the child, before the parent recorded it.
      await crashedBefore(parentId, before);
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(await runsOf('child')).toHaveLength(1);
      expect((await run(parentId)).history[1].run_id).toBe(started.run_id);
    });

    it('without payload_map passes the whole trigger payload; a target disabled since is a skipped step', async () => {
      await app.define('echo', [{ type: 'send', channel: 'sms', body: 'echo {{a}} {{b.c}}' }]);
      const event = await app.define('caller', [{ type: 'trigger_workflow', workflow_id: 'echo' }]);
      await trigger(event, 'kai', { a: 1, b: { c: 'two' } });
      await engine.drainOnce();
      await t.worker.drainOnce();
      expect(bodies()).toEqual(['+33600000003 echo 1 two']);
      expect(
        (
          await api('/v1/workflows', {
            id: 'echo',
            name: 'echo',
            trigger_event: 'echo.happened',
            enabled: false,
            steps: [{ type: 'send', channel: 'sms', body: 'x' }],
          })
        ).status,
      ).toBe(200);
      const [id] = await trigger(event, 'kai', { a: 2 });
      await engine.drainOnce();
      expect((await run(id)).history[0]).toMatchObject({
        result: 'skipped',
        detail: 'workflow echo no longer exists or is disabled',
      });
      expect(await runsOf('echo')).toHaveLength(1);
    });

    it('refuses loops at definition time: itself, or back through the workflows it starts; a missing target', async () => {
      const self = await upsert('selfish', [{ type: 'trigger_workflow', workflow_id: 'selfish' }]);
      expect([self.status, self.body.error, self.body.problems]).toEqual([
        422,
        'invalid_steps',
        ['steps[0].workflow_id names this workflow: its runs would start one another without end'],
      ]);
      await app.define('c', [{ type: 'send', channel: 'sms', body: 'c' }]);
      await app.define('b', [{ type: 'trigger_workflow', workflow_id: 'c' }]);
      await app.define('a', [
        { type: 'send', channel: 'sms', body: 'a' },
        { type: 'trigger_workflow', workflow_id: 'b' },
      ]);
      const loop = await upsert('c', [
        { type: 'delay', duration_secs: 60 },
        { type: 'trigger_workflow', workflow_id: 'a' },
      ]);
      expect([loop.status, loop.body.problems]).toEqual([
        422,
        [
          "steps[1].workflow_id: 'a' starts this workflow back (c → a → b → c): runs would start one another without end",
        ],
      ]);
      const missing = await upsert('d', [{ type: 'trigger_workflow', workflow_id: 'nowhere' }]);
      expect(missing.body.problems).toEqual([
        "steps[0].workflow_id names workflow 'nowhere', which does not exist in this project: create it first",
      ]);
      expect((await t.http.get('/v1/workflows/c').set('X-Api-Key', project.key)).body.workflow.steps).toEqual([
        { type: 'send', channel: 'sms', body: 'c' },
      ]);
    });

    it('stops runs started one inside the other at depth 5 (a loop the definition checks could not see)', async () => {
      // w0 → w1 → … → w6, defined from the end; then w6 is rewritten in SQL to start w0 again,
      // as a race between two definitions could leave it.
      await app.define('w6', [{ type: 'send', channel: 'sms', body: 'w6' }]);
      for (let n = 5; n >= 0; n--) await app.define(`w${n}`, [{ type: 'trigger_workflow', workflow_id: `w${n + 1}` }]);
      await t.db.sql(`UPDATE workflows SET steps = '[{"type":"trigger_workflow","workflow_id":"w0"}]' WHERE id = 'w6'`);
      await trigger('w0.happened', 'kai');
      await engine.drainOnce();
      const runs = await t.db.sql(
        `SELECT workflow_id, status, error, (context->>'depth')::int AS depth FROM workflow_runs WHERE workflow_id LIKE 'w_' ORDER BY created_at`,
      );
      expect(runs.map((r) => `${r.workflow_id}@${r.depth ?? 0}`)).toEqual([
        'w0@0',
        'w1@1',
        'w2@2',
        'w3@3',
        'w4@4',
        'w5@5',
      ]);
      const last = runs[runs.length - 1];
      expect(last).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(
          /^trigger_workflow: 5 runs already started one inside the other above this one; not starting w6/,
        ),
      });
      expect(runs.slice(0, -1).every((r) => r.status === 'completed')).toBe(true);
    });
    it('bounds fan-out: the runs one trigger starts through trigger_workflow steps are at most MAX_TRIGGERED_RUNS in all', async () => {
      // f0 → 12 × f1 → 12 × f2 → 12 × f3: 1 + 12 + 144 + 1 728 runs without a bound, no loop and
      // within the depth limit, so only the budget stops it.
      await app.define('f3', [{ type: 'send', channel: 'sms', body: 'leaf' }]);
      for (const [n, next] of [
        ['f2', 'f3'],
        ['f1', 'f2'],
        ['f0', 'f1'],
      ])
        await app.define(
          n,
          Array.from({ length: 12 }, () => ({ type: 'trigger_workflow', workflow_id: next })),
        );
      await trigger('f0.happened', 'lea');
      let seen = -1;
      for (let i = 0; i < 40; i++) {
        await engine.drainOnce();
        const [{ n }] = await t.db.sql(
          `SELECT count(*)::int AS n FROM workflow_runs WHERE workflow_id LIKE 'f_' AND status IN ('pending', 'processing', 'waiting')`,
        );
        const [{ total }] = await t.db.sql(
          `SELECT count(*)::int AS total FROM workflow_runs WHERE workflow_id LIKE 'f_'`,
        );
        if (n === 0 && total === seen) break;
        seen = total;
      }
      const runs = await t.db.sql(`SELECT status, error FROM workflow_runs WHERE workflow_id LIKE 'f_'`);
      expect(runs.length).toBeGreaterThan(12);
      expect(runs.length).toBeLessThanOrEqual(1 + MAX_TRIGGERED_RUNS);
      expect(
        runs.some((r) =>
          /^trigger_workflow: the runs of this trigger have started 100 runs already/.test(r.error ?? ''),
        ),
      ).toBe(true);
    }, 120_000);
  });

  it('checks every template a definition names at once: each step’s problem in order, another project’s templates unseen', async () => {
    const other = await t.createProject();
    expect(
      (
        await t.http
          .post('/v1/templates')
          .set('X-Api-Key', other.key)
          .send({ id: 'theirs', channel: 'sms', body: 'not yours' })
      ).status,
    ).toBeLessThan(300);
    const steps = [
      { type: 'send', channel: 'sms', template_id: 'greet' },
      { type: 'send', channel: 'sms', template_id: 'unknown-1' },
      { type: 'send', channel: 'email', template_id: 'mail-only' },
      { type: 'send', channel: 'sms', template_id: 'mail-only' },
      { type: 'send', channel: 'sms', template_id: 'theirs' },
      { type: 'digest', window_secs: 60, channel: 'sms', template_id: 'roll' },
      { type: 'send', channel: 'email', template_id: 'greet' },
      { type: 'send', channel: 'email', template_id: 'greet', subject: 'inline', body: 'fallback' },
      { type: 'send', channel: 'sms', template_id: 'unknown-1' },
    ];
    const res = await upsert('many', steps);
    expect([res.status, res.body.problems]).toEqual([
      422,
      [
        "steps[1].template_id names template 'unknown-1', which does not exist in this project: create it first (POST /v1/templates)",
        "steps[3].template_id: template 'mail-only' has no sms variant and the step has no subject or body to fall back on: add the variant or inline content",
        "steps[4].template_id names template 'theirs', which does not exist in this project: create it first (POST /v1/templates)",
        "steps[6].template_id: template 'greet' has no email variant and the step has no subject or body to fall back on: add the variant or inline content",
        "steps[8].template_id names template 'unknown-1', which does not exist in this project: create it first (POST /v1/templates)",
      ],
    ]);
    await app.define(
      'many',
      steps.filter((_, i) => ![1, 3, 4, 6, 8].includes(i)),
    );
  });

  it('refuses bad definitions of the new steps with 422 naming the field', async () => {
    const problems = async (steps: unknown[]) => {
      const res = await upsert('bad', steps);
      expect(res.status).toBe(422);
      return res.body.problems as string[];
    };
    expect(await problems([{ type: 'delay_until' }])).toEqual([
      'steps[0] (delay_until) needs exactly one of until (a date-time) or field (payload.<path> holding one)',
    ]);
    expect(await problems([{ type: 'delay_until', until: '2030-01-01T00:00:00Z', field: 'payload.at' }])).toEqual([
      expect.stringMatching(/^steps\[0\] \(delay_until\) needs exactly one of/),
    ]);
    expect(await problems([{ type: 'delay_until', until: 'tomorrow' }])).toEqual([
      expect.stringMatching(/^steps\[0\]\.until must be an RFC 3339 date-time/),
    ]);
    expect(await problems([{ type: 'delay_until', until: '2020-01-01T00:00:00Z' }])).toEqual([
      expect.stringMatching(/^steps\[0\]\.until is in the past/),
    ]);
    expect(await problems([{ type: 'delay_until', until: new Date(Date.now() + 400 * DAY).toISOString() }])).toEqual([
      expect.stringMatching(/^steps\[0\]\.until is more than 365 days ahead/),
    ]);
    expect(await problems([{ type: 'delay_until', field: 'subscriber.email' }])).toEqual([
      expect.stringMatching(/^steps\[0\]\.field must be payload\.<path>/),
    ]);
    expect((await problems([{ type: 'delay_until', field: 'payload.at', offset_secs: 90 * 86_400 }]))[0]).toMatch(
      /^steps\[0\]\.offset_secs /,
    );
    expect((await problems([{ type: 'send', channel: 'sms', template_id: 'no spaces allowed' }]))[0]).toMatch(
      /^steps\[0\]\.template_id must be 1–128 characters/,
    );
    expect(await problems([{ type: 'send', channel: 'sms', template_id: 'unknown' }])).toEqual([
      "steps[0].template_id names template 'unknown', which does not exist in this project: create it first (POST /v1/templates)",
    ]);
    expect(await problems([{ type: 'digest', window_secs: 60, channel: 'sms' }])).toEqual([
      'steps[0] (digest) needs a template_id, or a subject, body or body_html',
    ]);
    expect((await problems([{ type: 'trigger_workflow' }]))[0]).toMatch(/^steps\[0\]\.workflow_id /);
    expect(
      (await problems([{ type: 'trigger_workflow', workflow_id: 'x', payload_map: { 'bad key': 'payload.a' } }]))[0],
    ).toMatch(/^steps\[0\]\.payload_map/);
    expect(
      (await problems([{ type: 'trigger_workflow', workflow_id: 'x', payload_map: { a: 'nowhere.a' } }]))[0],
    ).toMatch(/^steps\[0\]\.payload_map\.a must be payload\.<path>/);
    expect((await problems([{ type: 'trigger_workflow', workflow_id: 'x', extra: 1 }]))[0]).toMatch(/^steps\[0\]/);
    expect((await t.http.get('/v1/workflows/bad').set('X-Api-Key', project.key)).status).toBe(404);
  });
});

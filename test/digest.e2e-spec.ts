import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { DigestRollup } from '../src/digest/rollup/rollup.service.js';
import { DATABASE_HEALTH } from '../src/digest/sql/digest.sql.js';
import { periodOf } from '../src/digest/sql/window.sql.js';
import { PeriodicTasks } from '../src/periodic/periodic-tasks.service.js';
import { windowBeforeRollup } from './helpers/digest-window-before-rollup.js';
import { RecordingConnector, RecordingConnectorModule, permanent, transient } from './helpers/recording-connector.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The operator digest over real PostgreSQL: each section read from a crafted state, findings
 * ranked, Markdown rendering, window/format validation and who may read it.
 */
describe('GET /v1/admin/digest', () => {
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp();
    project = await t.createProject('digestco');
  });
  afterAll(() => t?.close());

  const digest = (query = '', key = ADMIN_KEY) => t.http.get(`/v1/admin/digest${query}`).set('X-Api-Key', key);
  /** What the test server's own settings keep from autovacuum, as the digest labels it. */
  const serverBlockers = async (): Promise<string[]> => {
    const [s] = await t.db.sql(
      `SELECT current_setting('autovacuum')::bool AS autovacuum, current_setting('track_counts')::bool AS track_counts`,
    );
    return [
      ...(s.autovacuum ? [] : ['server: autovacuum = off']),
      ...(s.track_counts ? [] : ['notifyd sessions: track_counts = off']),
    ];
  };

  /** Inserts finished or live jobs straight into the queue table (the digest reads the table). */
  async function insertJobs(rows: {
    n: number;
    channel?: string;
    provider?: string | null;
    status: string;
    error?: string;
    priority?: number;
    runAgo?: string;
    sentAfter?: string;
    delivered?: boolean;
    bounced?: boolean;
    attempts?: number;
    finishedAgo?: string;
    createdAgo?: string;
  }): Promise<string[]> {
    const r = rows;
    const result = await t.db.sql(
      `INSERT INTO jobs (project_id, channel, recipient, status, priority, provider, error, attempts,
                         created_at, scheduled_at, run_at, sent_at, finished_at, delivered_at, bounced_at, next_retry_at)
       SELECT $1, $2, 'x' || g || '@example.com', $3, $4, $5, $6, $7,
              now() - $8::interval, now() - $9::interval, now() - $9::interval,
              CASE WHEN $3 IN ('sent','bounced') THEN now() - $9::interval + $10::interval END,
              CASE WHEN $3 IN ('sent','failed','bounced','cancelled') THEN now() - $11::interval END,
              CASE WHEN $12 THEN now() END, CASE WHEN $13 THEN now() END,
              CASE WHEN $3 = 'retry' THEN now() + interval '2 minutes' END
         FROM generate_series(1, $14) g RETURNING id`,
      [
        project.id,
        r.channel ?? 'email',
        r.status,
        r.priority ?? 50,
        r.provider === undefined ? 'log' : r.provider,
        r.error ?? null,
        r.attempts ?? 1,
        r.createdAgo ?? '1 minute',
        r.runAgo ?? '1 minute',
        r.sentAfter ?? '2 seconds',
        r.finishedAgo ?? '10 seconds',
        r.delivered ?? false,
        r.bounced ?? false,
        r.n,
      ],
    );
    // Back-dated rows land in periods the rollup may have rolled already: mark their 5-minute
    // periods, as the trigger does for an update (the digest then reads them from jobs until
    // re-rolled; a mark in a whole hour stands for the hour).
    await t.db.sql(
      `INSERT INTO job_rollup_dirty (hour) SELECT DISTINCT ${periodOf('finished_at')} FROM jobs WHERE finished_at IS NOT NULL ON CONFLICT DO NOTHING`,
    );
    return result.map((x) => x.id as string);
  }

  it('admin and read-only keys read it; a project key is refused with 403, no key with 401', async () => {
    expect((await digest()).status).toBe(200);
    expect((await digest('', READONLY_KEY)).status).toBe(200);
    const projectKey = await digest('', project.key);
    expect(projectKey.status).toBe(403);
    expect(projectKey.body.message).toMatch(/ADMIN_API_KEY/);
    expect((await t.http.get('/v1/admin/digest')).status).toBe(401);
  });

  it('refuses an unknown window or format with 400 naming the choices', async () => {
    const w = await digest('?window=2h');
    expect(w.status).toBe(400);
    expect(w.body).toMatchObject({ error: 'invalid_window' });
    expect(w.body.message).toContain('1h, 6h, 24h, 7d, 30d');
    const f = await digest('?format=html');
    expect(f.status).toBe(400);
    expect(f.body).toMatchObject({ error: 'invalid_format' });
    expect(f.body.message).toContain('json or markdown');
    expect((await digest('?window=1d')).body.window).toBe('24h');
    expect((await digest('?window=7d')).body.window_seconds).toBe(604_800);
  });

  it('reads outcomes, normalised failure causes, latency, retries, deliverability and the oldest waiting job, and ranks what they mean', async () => {
    await insertJobs({ n: 40, status: 'sent', delivered: true, sentAfter: '2 seconds' });
    await insertJobs({ n: 2, status: 'bounced', bounced: true });
    const failedA = await insertJobs({
      n: 3,
      status: 'failed',
      error: 'provider 550: mailbox unavailable for 4ad1c0de-1111-4222-8333-444455556666',
    });
    const failedB = await insertJobs({
      n: 2,
      channel: 'sms',
      status: 'failed',
      error: 'invalid number +33612345678 for jane@example.com | code 21211',
    });
    await insertJobs({ n: 4, channel: 'sms', status: 'retry', attempts: 2 });
    // An urgent job due for 10 minutes: nobody claimed it.
    await insertJobs({
      n: 1,
      status: 'pending',
      priority: 10,
      runAgo: '10 minutes',
      createdAgo: '10 minutes',
      provider: null,
    });
    // Outside the 1h window: created and finished two hours ago.
    await insertJobs({ n: 5, status: 'failed', error: 'old failure', createdAgo: '2 hours', finishedAgo: '2 hours' });

    const res = await digest('?window=1h');
    expect(res.status).toBe(200);
    const r = res.body;

    expect(r.outcomes).toEqual(
      expect.arrayContaining([
        { channel: 'email', provider: 'log', sent: 40, failed: 3, bounced: 2, cancelled: 0 },
        { channel: 'sms', provider: 'log', sent: 0, failed: 2, bounced: 0, cancelled: 0 },
      ]),
    );
    expect(r.failures).toHaveLength(2);
    const email = r.failures.find((f: { channel: string }) => f.channel === 'email');
    expect(email).toMatchObject({ count: 3, reason: 'provider 550: mailbox unavailable for #' });
    expect(failedA).toContain(email.sample_job_id);
    const sms = r.failures.find((f: { channel: string }) => f.channel === 'sms');
    expect(sms.reason).toBe('invalid number +# for <*@example.com> | code #');
    expect(failedB).toContain(sms.sample_job_id);
    expect(JSON.stringify(r)).not.toContain('jane@example.com');

    // Percentiles come from a log-scale histogram: within 5 % of the exact 2 s.
    expect(r.latency).toEqual([
      { channel: 'email', p50_seconds: expect.any(Number), p95_seconds: expect.any(Number), samples: 42 },
    ]);
    expect(Math.abs(r.latency[0].p50_seconds - 2)).toBeLessThan(0.1);
    expect(Math.abs(r.latency[0].p95_seconds - 2)).toBeLessThan(0.1);
    expect(r.retries_waiting).toEqual([{ channel: 'sms', attempts: 2, count: 4, next_retry_at: expect.any(String) }]);
    expect(r.queue).toMatchObject({ pending: 1, retry: 4, processing: 0, stuck_processing: 0 });
    expect(r.queue.oldest_waiting_seconds.urgent).toBeGreaterThanOrEqual(590);
    expect(r.deliverability).toMatchObject({ delivered: 40, bounced: 2, bounce_rate_percent: 4.76 });
    expect(r.projects.find((p: { id: string }) => p.id === project.id)).toMatchObject({
      sent: 40,
      failed: 5,
      from_email: null,
    });

    const codes = r.findings.map((f: { severity: string; code: string }) => `${f.severity}:${f.code}`);
    // CI's PostgreSQL 15 runs with autovacuum off, the embedded PostgreSQL 18 with it on.
    const autovacuumOff = (await serverBlockers()).length ? ['warning:autovacuum_off'] : [];
    // Within a severity, by harm: 40 emails swallowed by the log provider, then 5 jobs late by
    // minutes (no worker runs in this api-only app: it says so); 5 failed of 45 in one project
    // is a narrow loss, a warning that ranks first among the warnings.
    expect(codes).toEqual([
      'critical:email_provider_log',
      'critical:worker_missing',
      'critical:queue_oldest_waiting',
      'warning:failure_rate',
      'warning:bounce_rate_high',
      ...autovacuumOff,
      'warning:sender_missing',
      'warning:public_url_missing',
      'info:provider_failing', // 4 SMS retrying for a minute: little harm yet
    ]);
    expect(r.summary).toEqual({ critical: 3, warning: 4 + autovacuumOff.length, info: 1 });
    expect(r.retrying).toEqual([
      {
        channel: 'sms',
        provider: 'log',
        count: 4,
        projects: 1,
        project_ids: [project.id],
        oldest_late_seconds: expect.any(Number),
        next_retry_at: expect.any(String),
        sample_job_id: expect.any(String),
        causes: [{ reason: 'no error recorded', count: 4 }],
      },
    ]);
    expect(r.queue).toMatchObject({ due: 5, late: 5 }); // the crafted retries are due again already
    const failure = r.findings.find((f: { code: string }) => f.code === 'failure_rate');
    expect(failure.message).toContain('provider 550: mailbox unavailable');
    expect(failure.evidence).toMatchObject({ sent: 40, failed: 5 });

    // The 24h window also holds the two-hour-old failures.
    const day = (await digest('?window=24h')).body;
    expect(day.failures.find((f: { reason: string }) => f.reason === 'old failure')).toMatchObject({ count: 5 });
  });

  it('reports paused lanes and disabled webhook endpoints with the endpoint that fixes them', async () => {
    const paused = await t.http
      .post('/v1/admin/lanes/sms:log/pause')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ duration_secs: 600, reason: 'maintenance' });
    expect(paused.status).toBe(200);
    await t.db.sql(
      `INSERT INTO webhook_endpoints (id, project_id, url, events, enabled, secret_enc, secret_hint, disabled_at, disabled_reason)
       VALUES ('0c9d8e7f-1a2b-4c3d-8e9f-001122334455', $1, 'https://hooks.digestco.test/secret-token-path', '{job.sent}', false, '\\x00', 'whsec_…', now(), '410 Gone')`,
      [project.id],
    );
    const r = (await digest()).body;
    expect(r.instance.paused_lanes).toContain('sms:log');
    const lane = r.findings.find((f: { code: string }) => f.code === 'lane_paused');
    expect(lane).toMatchObject({ severity: 'info' });
    expect(lane.action).toContain('POST /v1/admin/lanes/sms:log/resume');
    const hook = r.findings.find((f: { code: string }) => f.code === 'webhook_endpoint_disabled');
    expect(hook.severity).toBe('warning');
    expect(hook.action).toContain('PATCH /v1/admin/webhooks/0c9d8e7f-1a2b-4c3d-8e9f-001122334455');
    expect(JSON.stringify(r)).not.toContain('secret-token-path');

    await t.http.post('/v1/admin/lanes/sms:log/resume').set('X-Api-Key', ADMIN_KEY);
    const after = (await digest()).body;
    expect(after.findings.find((f: { code: string }) => f.code === 'lane_paused')).toBeUndefined();
  });

  it('reports a webhook endpoint paused by its circuit breaker while the pause runs, host only', async () => {
    const id = '1d2e3f40-5a6b-4c7d-8e9f-00aabbccddee';
    // As TOUCH_ENDPOINTS leaves it after the fifth failed attempt in a row.
    await t.db.sql(
      `INSERT INTO webhook_endpoints (id, project_id, url, events, enabled, secret_enc, secret_hint,
                                      consecutive_failures, last_failure_at, paused_until)
       VALUES ($1, $2, 'https://paused.digestco.test/hook?token=paused-secret-token', '{job.sent}', true, '\\x00', 'whsec_…',
               5, now() - interval '10 seconds', now() + interval '20 seconds')`,
      [id, project.id],
    );
    try {
      const r = (await digest()).body;
      expect(r.webhooks_paused).toEqual([
        {
          id,
          project_id: project.id,
          host: 'paused.digestco.test',
          last_failure_at: expect.any(String),
          paused_until: expect.any(String),
          consecutive_failures: 5,
        },
      ]);
      const hook = r.findings.find((f: { code: string }) => f.code === 'webhook_endpoint_paused');
      expect(hook).toMatchObject({ severity: 'warning', evidence: r.webhooks_paused[0] });
      expect(hook.message).toContain(`Webhook endpoint ${id} of project ${project.id} (paused.digestco.test)`);
      expect(hook.message).toContain(`until ${r.webhooks_paused[0].paused_until}`);
      expect(hook.message).toContain('after 5 failed attempts in a row');
      expect(hook.message).toContain('not lost');
      expect(hook.action).toContain(`GET /v1/admin/webhooks/${id}/deliveries`);
      expect(JSON.stringify(r)).not.toContain('paused-secret-token');
      expect((await digest('?format=markdown')).text).toContain('`webhook_endpoint_paused`');

      // The pause has ended (a probe may go): nothing to report, and no finding either when disabled.
      await t.db.sql(`UPDATE webhook_endpoints SET paused_until = now() - interval '1 second' WHERE id = $1`, [id]);
      const ended = (await digest()).body;
      expect(ended.webhooks_paused).toEqual([]);
      expect(ended.findings.find((f: { code: string }) => f.code === 'webhook_endpoint_paused')).toBeUndefined();
      await t.db.sql(
        `UPDATE webhook_endpoints SET paused_until = now() + interval '1 minute', enabled = false WHERE id = $1`,
        [id],
      );
      expect((await digest()).body.webhooks_paused).toEqual([]);
    } finally {
      await t.db.sql(`DELETE FROM webhook_endpoints WHERE id = $1`, [id]);
    }
  });

  it('reads the database: dead tuples on jobs and NOTIFY commit-lock waiters', async () => {
    const r = (await digest()).body;
    expect(r.database).toMatchObject({ notify_lock_waiters: 0 });
    expect(typeof r.database.jobs_dead_tuples).toBe('number');
    expect(r.findings.find((f: { code: string }) => f.code === 'notify_commit_lock')).toBeUndefined();
  });

  it('says when autovacuum cannot visit the jobs table, and why', async () => {
    const server = await serverBlockers();
    const finding = (body: { findings: { code: string }[] }) => body.findings.find((f) => f.code === 'autovacuum_off');

    const before = (await digest()).body;
    expect(before.database.jobs_autovacuum_blocked_by).toEqual(server);
    expect(Boolean(finding(before))).toBe(server.length > 0);

    await t.db.sql(`ALTER TABLE jobs SET (autovacuum_enabled = off)`);
    try {
      const off = (await digest()).body;
      const blocked = [...server, 'table jobs: autovacuum_enabled = false'];
      expect(off.database.jobs_autovacuum_blocked_by).toEqual(blocked);
      expect(finding(off)).toMatchObject({
        severity: 'warning',
        message: expect.stringContaining('table jobs: autovacuum_enabled = false'),
      });
      expect((await digest('?format=markdown')).text).toContain(`autovacuum blocked by ${blocked.join('; ')}`);
    } finally {
      await t.db.sql(`ALTER TABLE jobs RESET (autovacuum_enabled)`);
    }
    expect((await digest()).body.database.jobs_autovacuum_blocked_by).toEqual(server);
  });

  it('reads track_counts as notifyd sessions see it (it can be set per database, role or session)', async () => {
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    try {
      await client.query(`SET track_counts = off`);
      const [row] = (await client.query(DATABASE_HEALTH)).rows;
      expect(row).toMatchObject({ session_track_counts_off: true, table_autovacuum_disabled: false });
    } finally {
      await client.end();
    }
  });

  it('renders Markdown: findings first with their actions, tables with escaped pipes', async () => {
    const res = await digest('?window=1h&format=markdown');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/markdown/);
    const md = res.text;
    expect(md).toMatch(/^# notifyd digest — last 1h/);
    expect(md.indexOf('## Findings')).toBeLessThan(md.indexOf('## Queue'));
    expect(md).toContain('- **critical** `email_provider_log` — EMAIL_PROVIDER is "log"');
    expect(md).toContain('_Switch EMAIL_PROVIDER');
    expect(md).toContain('| channel | provider | sent | failed | bounced | cancelled |');
    expect(md).toContain('invalid number +# for <*@example.com> \\| code #');
    expect(md).toContain('## Deliverability');
  });
});

/**
 * The hourly rollup (job_outcome_hourly) against the jobs it summarises: a real drain (sends,
 * permanent failures, a transient failure retried to success), provider evidence through the
 * Postmark webhook, then the history moved three hours back so that the rollup, not the jobs
 * table, answers for it.
 */
describe('digest rollup', () => {
  const USER = 'rollup-hooks';
  const PASS = 'pm-rollup-0123456789abcdef';
  let t: TestApp;
  let project: { id: string; key: string };
  let sms: RecordingConnector;
  let rollup: DigestRollup;
  const emails: { id: string; to: string; messageId?: string }[] = [];
  const failedSms: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        SMS_PROVIDER: 'recording',
        POSTMARK_WEBHOOK_USERNAME: USER,
        POSTMARK_WEBHOOK_PASSWORD: PASS,
        JOB_RETENTION_DAYS: '0',
        FAILED_JOB_RETENTION_DAYS: '0',
      },
      imports: [RecordingConnectorModule],
    });
    project = await t.createProject('rollupco');
    sms = t.notifyd.app.get(RecordingConnector);
    rollup = t.notifyd.app.get(DigestRollup);
    // The test runs the rollup by hand: no tick may take the dirty marks between two assertions.
    t.notifyd.app.get(PeriodicTasks).stop('digest-rollup');
    await rollup.run();
  });
  afterAll(() => t?.close());

  const digest = async (window: string) =>
    (await t.http.get(`/v1/admin/digest?window=${window}`).set('X-Api-Key', ADMIN_KEY)).body;
  const send = async (channel: 'email' | 'sms', to: string) => {
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: [channel], to, subject: 'Hi', body: 'Hello' });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const postmark = (body: unknown) =>
    t.http
      .post('/webhooks/postmark')
      .auth(USER, PASS)
      .set('content-type', 'application/json')
      .send(JSON.stringify(body));
  /** Sums the rollup's rows over every hour, per the digest's sections. */
  const rolled = () =>
    t.db.sql(`
      SELECT channel, provider, sum(sent)::int AS sent, sum(failed)::int AS failed, sum(bounced)::int AS bounced, sum(cancelled)::int AS cancelled,
             sum(delivered_events)::int AS delivered, sum(bounced_events)::int AS bounced_events, sum(complained_events)::int AS complained
        FROM job_outcome_hourly WHERE project_id IS NOT NULL GROUP BY channel, provider ORDER BY channel, provider`);
  /** The same numbers counted directly over jobs. */
  const counted = () =>
    t.db.sql(`
      SELECT channel, COALESCE(provider, 'none') AS provider, count(*) FILTER (WHERE status = 'sent')::int AS sent,
             count(*) FILTER (WHERE status = 'failed')::int AS failed, count(*) FILTER (WHERE status = 'bounced')::int AS bounced,
             count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled, count(delivered_at)::int AS delivered,
             count(bounced_at)::int AS bounced_events, count(complained_at)::int AS complained
        FROM jobs WHERE finished_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`);
  const latencySamples = async () => ({
    rolled: await t.db.sql(
      `SELECT channel, sum(n)::int AS n FROM job_outcome_hourly WHERE project_id IS NULL GROUP BY channel ORDER BY channel`,
    ),
    counted: await t.db.sql(
      `SELECT channel, count(*)::int AS n FROM jobs WHERE finished_at IS NOT NULL AND sent_at >= scheduled_at GROUP BY channel ORDER BY channel`,
    ),
  });
  /** What the digest says next to what the pre-rollup query says over the same rows. */
  async function expectSameAsBefore(window: string) {
    const r = await digest(window);
    const before = await windowBeforeRollup(t.db, r.since);
    expect(r.outcomes).toEqual(before.outcomes);
    expect(r.failures).toEqual(before.failures);
    expect(r.latency).toEqual(before.latency);
    expect(r.deliverability).toMatchObject({
      delivered: before.delivered,
      bounced: before.bounced,
      complained: before.complained,
    });
    expect(r.last_finished_at).toBe(before.lastFinishedAt);
    expect(r.projects.find((p: { id: string }) => p.id === project.id)).toMatchObject(before.perProject[project.id]);
    return r;
  }

  it('after a drain with sends, failures, a retry and webhook evidence, the rolled hours equal a direct count over jobs', async () => {
    const tries = new Map<string, number>();
    sms.script = (m, call) => {
      tries.set(m.recipient, (tries.get(m.recipient) ?? 0) + 1);
      if (m.recipient.endsWith('0')) return permanent(`HTTP 422: invalid recipient ${m.recipient}`);
      if (m.recipient.endsWith('1') && tries.get(m.recipient) === 1) return transient('HTTP 503: unavailable');
      return { ok: true, providerMessageId: `rec_${m.recipient}_${call}` };
    };
    for (let i = 0; i < 12; i++)
      emails.push({ to: `r${i}@customer.example`, id: await send('email', `r${i}@customer.example`) });
    const smsIds: string[] = [];
    for (let i = 0; i < 6; i++) smsIds.push(await send('sms', `+3361234567${i}`));
    await t.worker.drainOnce();
    // The transient failure is due again in 30 s: make it due now and drain it to success.
    expect(
      await t.db.sql(`UPDATE jobs SET run_at = now(), next_retry_at = now() WHERE status = 'retry' RETURNING id`),
    ).toHaveLength(1);
    await t.worker.drainOnce();
    failedSms.push(...smsIds.filter((_, i) => i === 0));

    const at = new Date().toISOString();
    // Postmark identifies an event by (MessageID, RecordType): each job's own message id.
    const messageIds = new Map(
      (await t.db.sql(`SELECT id, provider_message_id FROM jobs WHERE channel = 'email'`)).map((j) => [
        j.id as string,
        j.provider_message_id as string,
      ]),
    );
    for (const e of emails) e.messageId = messageIds.get(e.id)!;
    for (const e of emails.slice(0, 8))
      expect(
        (
          await postmark({
            RecordType: 'Delivery',
            MessageID: e.messageId,
            Recipient: e.to,
            DeliveredAt: at,
            Metadata: { notifyd_job_id: e.id },
          })
        ).status,
      ).toBe(200);
    for (const e of emails.slice(8, 10)) {
      expect(
        (
          await postmark({
            RecordType: 'Bounce',
            Type: 'HardBounce',
            TypeCode: 1,
            MessageID: e.messageId,
            Email: e.to,
            Description: 'mailbox not found',
            Inactive: true,
            BouncedAt: at,
            Metadata: { notifyd_job_id: e.id },
          })
        ).status,
      ).toBe(200);
    }
    expect(
      (
        await postmark({
          RecordType: 'SpamComplaint',
          Type: 'SpamComplaint',
          TypeCode: 512,
          MessageID: emails[0].messageId,
          Email: emails[0].to,
          BouncedAt: at,
          Metadata: { notifyd_job_id: emails[0].id },
        })
      ).status,
    ).toBe(200);

    // Three hours back: these hours were rolled (empty) at boot. The trigger marks the periods
    // the jobs leave; nothing in notifyd moves a job into the past, so mark the ones they land in.
    await t.db.sql(`
      UPDATE jobs SET created_at = created_at - interval '3 hours', scheduled_at = scheduled_at - interval '3 hours', run_at = run_at - interval '3 hours',
                      sent_at = sent_at - interval '3 hours', finished_at = finished_at - interval '3 hours', delivered_at = delivered_at - interval '3 hours',
                      bounced_at = bounced_at - interval '3 hours', complained_at = complained_at - interval '3 hours'`);
    await t.db.sql(
      `INSERT INTO job_rollup_dirty (hour) SELECT DISTINCT ${periodOf('finished_at')} FROM jobs WHERE finished_at IS NOT NULL ON CONFLICT DO NOTHING`,
    );
    // Read from jobs while dirty, from the rollup once re-rolled: the same answer both times.
    const whileDirty = await expectSameAsBefore('7d');
    const run = await rollup.run();
    expect(run.rerolled.length).toBeGreaterThan(0);
    expect(await t.db.sql(`SELECT hour FROM job_rollup_dirty`)).toEqual([]);
    const [{ rolled_through }] = await t.db.sql(`SELECT rolled_through FROM job_rollup_state`);
    expect(new Date(rolled_through).getTime()).toBeGreaterThan(Date.now() - 2 * 3_600_000);

    expect(await rolled()).toEqual(await counted());
    const samples = await latencySamples();
    expect(samples.rolled).toEqual(samples.counted);
    expect(await rolled()).toEqual([
      {
        channel: 'email',
        provider: 'log',
        sent: 10,
        failed: 0,
        bounced: 2,
        cancelled: 0,
        delivered: 8,
        bounced_events: 2,
        complained: 1,
      },
      {
        channel: 'sms',
        provider: 'recording',
        sent: 5,
        failed: 1,
        bounced: 0,
        cancelled: 0,
        delivered: 0,
        bounced_events: 0,
        complained: 0,
      },
    ]);
    const r = await expectSameAsBefore('7d');
    expect(r.outcomes).toEqual(whileDirty.outcomes);
    // The retried SMS counts once, as sent; the failure cause names the permanent refusal.
    expect(r.outcomes.find((o: { channel: string }) => o.channel === 'sms')).toMatchObject({ sent: 5, failed: 1 });
    expect(r.failures).toEqual([
      expect.objectContaining({
        channel: 'sms',
        reason: 'HTTP 422: invalid recipient +#',
        count: 1,
        sample_job_id: failedSms[0],
      }),
    ]);
    expect(r.deliverability).toMatchObject({ delivered: 8, bounced: 2, complained: 1 });
    await expectSameAsBefore('30d');
    await expectSameAsBefore('24h');
  });

  it('late evidence and a manual retry mark the rolled hour dirty: the digest stays exact and the next run re-rolls it', async () => {
    // A delivery report for a job of a rolled hour (three hours ago).
    const late = emails[10];
    expect(
      (
        await postmark({
          RecordType: 'Delivery',
          MessageID: late.messageId,
          Recipient: late.to,
          DeliveredAt: new Date().toISOString(),
          Metadata: { notifyd_job_id: late.id },
        })
      ).status,
    ).toBe(200);
    // A failed SMS retried by hand: it leaves its old hour and will be sent in this one.
    expect((await t.http.post(`/v1/admin/jobs/${failedSms[0]}/retry`).set('X-Api-Key', ADMIN_KEY)).status).toBe(200);
    expect((await t.db.sql(`SELECT hour FROM job_rollup_dirty`)).length).toBeGreaterThan(0);

    let r = await expectSameAsBefore('24h');
    expect(r.deliverability.delivered).toBe(9);
    expect(r.outcomes.find((o: { channel: string }) => o.channel === 'sms')).toMatchObject({ sent: 5, failed: 0 });

    sms.reset();
    await t.worker.drainOnce();
    r = await expectSameAsBefore('24h');
    expect(r.outcomes.find((o: { channel: string }) => o.channel === 'sms')).toMatchObject({ sent: 6, failed: 0 });

    const run = await rollup.run();
    expect(run.rerolled.length).toBeGreaterThanOrEqual(1); // one hour, two if the drain straddled an hour
    expect(await t.db.sql(`SELECT hour FROM job_rollup_dirty`)).toEqual([]);
    r = await expectSameAsBefore('24h');
    expect(r.outcomes.find((o: { channel: string }) => o.channel === 'sms')).toMatchObject({ sent: 6, failed: 0 });
    // The rolled hours (three hours ago) hold the retried job no more; it finished in this hour,
    // whose 5-minute periods hold it.
    const [rolledSms] = await t.db.sql(
      `SELECT sum(sent)::int AS sent, sum(failed)::int AS failed FROM job_outcome_hourly WHERE project_id IS NOT NULL AND channel = 'sms' AND hour < now() - interval '2 hours'`,
    );
    expect(rolledSms).toMatchObject({ sent: 5, failed: 0 });
    await expectSameAsBefore('7d');
  });

  it('a run is idempotent: rolling again changes no row', async () => {
    await sleep(400);
    await rollup.run(); // what finished since the last read, first
    const before = await t.db.sql(
      `SELECT * FROM job_outcome_hourly ORDER BY hour, channel, project_id, provider, reason, bucket`,
    );
    await t.db.sql(
      `INSERT INTO job_rollup_dirty (hour) SELECT DISTINCT hour FROM job_outcome_hourly ON CONFLICT DO NOTHING`,
    );
    await rollup.run();
    expect(
      await t.db.sql(`SELECT * FROM job_outcome_hourly ORDER BY hour, channel, project_id, provider, reason, bucket`),
    ).toEqual(before);
  });

  it('the open hour is rolled in 5-minute periods as its jobs settle: the read after a burst rolls them, slices merge into one row per period and group', async () => {
    const openRows = () =>
      t.db.sql(
        `SELECT o.* FROM job_outcome_hourly o, job_rollup_state s WHERE o.hour >= s.hours_through ORDER BY o.hour, o.channel, o.project_id, o.provider, o.reason, o.bucket`,
      );
    for (let round = 0; round < 3; round++) {
      sms.reset();
      for (let i = 0; i < 3; i++) await send('sms', `+336111122${round}${i}`);
      await t.worker.drainOnce();
      // Past the settle margin (OPEN_SETTLE) and the catch-up's minimum lag (CATCH_UP_MIN_MS).
      await sleep(1_300);
      const [{ rolled_through: before }] = await t.db.sql(`SELECT rolled_through FROM job_rollup_state`);
      await expectSameAsBefore('1h');
      // The read rolled what had settled (the periodic task is stopped in this block).
      const [{ rolled_through: after }] = await t.db.sql(`SELECT rolled_through FROM job_rollup_state`);
      expect(new Date(after).getTime()).toBeGreaterThan(new Date(before).getTime());
    }
    const rows = await openRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(new Date(row.hour).getTime() % 300_000).toBe(0);
    const groups = rows.map((r) => JSON.stringify([r.hour, r.project_id, r.channel, r.provider, r.reason, r.bucket]));
    expect(new Set(groups).size).toBe(groups.length);
    const sent = rows.filter((r) => r.project_id !== null && r.channel === 'sms').reduce((n, r) => n + r.sent, 0);
    expect(sent).toBeGreaterThanOrEqual(9);
  });

  it('a transaction still open holds the open periods back: a job it finishes, stamped at its start, is not lost', async () => {
    const id = await send('sms', '+33611112999');
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      const [{ started }] = (await client.query(`SELECT now() AS started`)).rows;
      await sleep(600);
      // Reads roll what has settled: never past the open transaction's start.
      await expectSameAsBefore('1h');
      const [{ rolled_through }] = await t.db.sql(`SELECT rolled_through FROM job_rollup_state`);
      expect(new Date(rolled_through).getTime()).toBeLessThanOrEqual(new Date(started).getTime());
      // It finishes the job now, stamped with its own start (as finalise does), and commits.
      await client.query(
        `UPDATE jobs SET status = 'sent', sent_at = now(), finished_at = now(), provider = 'recording' WHERE id = $1`,
        [id],
      );
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    await sleep(400);
    const r = await expectSameAsBefore('1h');
    expect(r.last_finished_at).not.toBeNull();
  });

  it('the read never waits for the rollup: while another roller holds its lock, the digest reads the open periods from jobs', async () => {
    await send('sms', '+33611113000');
    await t.worker.drainOnce();
    await sleep(400);
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT 1 FROM job_rollup_state FOR UPDATE`);
      const [{ rolled_through: before }] = await t.db.sql(`SELECT rolled_through FROM job_rollup_state`);
      const started = Date.now();
      await expectSameAsBefore('1h');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await t.db.sql(`SELECT rolled_through FROM job_rollup_state`))[0].rolled_through).toEqual(before);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    }
  });

  it('a run with nothing dirty rewrites no row; a dirty mark of a rolled hour is taken and re-rolled by the next run', async () => {
    await sleep(400);
    await rollup.run();
    expect(await t.db.sql(`SELECT hour FROM job_rollup_dirty`)).toEqual([]);
    const rows = () =>
      t.db.sql(`SELECT * FROM job_outcome_hourly ORDER BY hour, channel, project_id, provider, reason, bucket`);
    const before = await rows();
    expect(await rollup.run()).toMatchObject({ hoursThrough: null, rerolled: [] });
    expect(await rows()).toEqual(before);
    await t.db.sql(`INSERT INTO job_rollup_dirty (hour) SELECT min(hour) FROM job_outcome_hourly`);
    expect((await rollup.run()).rerolled).toHaveLength(1);
    expect(await t.db.sql(`SELECT hour FROM job_rollup_dirty`)).toEqual([]);
    expect(await rows()).toEqual(before);
  });

  it('rolled hours outlive the retention purge: the 7d digest still counts purged jobs', async () => {
    const before = await digest('7d');
    // What the retention purge deletes (PURGE_FINISHED): finished jobs, here those of the rolled hours.
    const purged = await t.db.sql(`DELETE FROM jobs WHERE finished_at < now() - interval '2 hours' RETURNING id`);
    expect(purged.length).toBeGreaterThan(0);
    const after = await digest('7d');
    expect(after.outcomes).toEqual(before.outcomes);
    expect(after.failures).toEqual(before.failures);
    expect(after.latency).toEqual(before.latency);
    expect(after.deliverability).toEqual(before.deliverability);
  });
});

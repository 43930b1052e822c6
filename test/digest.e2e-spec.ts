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

  /** Inserts finished or live jobs straight into the queue table (the digest reads the table). */
  async function insertJobs(rows: {
    n: number; channel?: string; provider?: string | null; status: string; error?: string; priority?: number;
    runAgo?: string; sentAfter?: string; delivered?: boolean; bounced?: boolean; attempts?: number; finishedAgo?: string; createdAgo?: string;
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
        project.id, r.channel ?? 'email', r.status, r.priority ?? 50, r.provider === undefined ? 'log' : r.provider, r.error ?? null, r.attempts ?? 1,
        r.createdAgo ?? '1 minute', r.runAgo ?? '1 minute', r.sentAfter ?? '2 seconds', r.finishedAgo ?? '10 seconds',
        r.delivered ?? false, r.bounced ?? false, r.n,
      ],
    );
    // Back-dated rows land in hours the rollup may have rolled already: mark those hours, as
    // the trigger does for an update (the digest then reads them from jobs until re-rolled).
    await t.db.sql(`INSERT INTO job_rollup_dirty (hour) SELECT DISTINCT date_trunc('hour', finished_at, 'UTC') FROM jobs WHERE finished_at IS NOT NULL ON CONFLICT DO NOTHING`);
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
    const failedA = await insertJobs({ n: 3, status: 'failed', error: 'provider 550: mailbox unavailable for 4ad1c0de-1111-4222-8333-444455556666' });
    const failedB = await insertJobs({ n: 2, channel: 'sms', status: 'failed', error: 'invalid number +33612345678 for jane@example.com | code 21211' });
    await insertJobs({ n: 4, channel: 'sms', status: 'retry', attempts: 2 });
    // An urgent job due for 10 minutes: nobody claimed it.
    await insertJobs({ n: 1, status: 'pending', priority: 10, runAgo: '10 minutes', createdAgo: '10 minutes', provider: null });
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
    expect(email).toMatchObject({ count: 3, reason: 'provider #: mailbox unavailable for #' });
    expect(failedA).toContain(email.sample_job_id);
    const sms = r.failures.find((f: { channel: string }) => f.channel === 'sms');
    expect(sms.reason).toBe('invalid number +# for <email> | code #');
    expect(failedB).toContain(sms.sample_job_id);
    expect(JSON.stringify(r)).not.toContain('jane@example.com');

    // Percentiles come from a log-scale histogram: within 5 % of the exact 2 s.
    expect(r.latency).toEqual([{ channel: 'email', p50_seconds: expect.any(Number), p95_seconds: expect.any(Number), samples: 42 }]);
    expect(Math.abs(r.latency[0].p50_seconds - 2)).toBeLessThan(0.1);
    expect(Math.abs(r.latency[0].p95_seconds - 2)).toBeLessThan(0.1);
    expect(r.retries_waiting).toEqual([{ channel: 'sms', attempts: 2, count: 4, next_retry_at: expect.any(String) }]);
    expect(r.queue).toMatchObject({ pending: 1, retry: 4, processing: 0, stuck_processing: 0 });
    expect(r.queue.oldest_waiting_seconds.urgent).toBeGreaterThanOrEqual(590);
    expect(r.deliverability).toMatchObject({ delivered: 40, bounced: 2, bounce_rate_percent: 4.76 });
    expect(r.projects.find((p: { id: string }) => p.id === project.id)).toMatchObject({ sent: 40, failed: 5, from_email: null });

    const codes = r.findings.map((f: { severity: string; code: string }) => `${f.severity}:${f.code}`);
    expect(codes).toEqual([
      'critical:email_provider_log',
      'critical:queue_oldest_waiting',
      'critical:failure_rate', // 5 failed of 45
      'warning:bounce_rate_high',
      'warning:sender_missing',
      'warning:public_url_missing',
    ]);
    expect(r.summary).toEqual({ critical: 3, warning: 3, info: 0 });
    const failure = r.findings.find((f: { code: string }) => f.code === 'failure_rate');
    expect(failure.message).toContain('provider #: mailbox unavailable');
    expect(failure.evidence).toMatchObject({ sent: 40, failed: 5 });

    // The 24h window also holds the two-hour-old failures.
    const day = (await digest('?window=24h')).body;
    expect(day.failures.find((f: { reason: string }) => f.reason === 'old failure')).toMatchObject({ count: 5 });
  });

  it('reports paused lanes and disabled webhook endpoints with the endpoint that fixes them', async () => {
    const paused = await t.http.post('/v1/admin/lanes/sms:log/pause').set('X-Api-Key', ADMIN_KEY).send({ duration_secs: 600, reason: 'maintenance' });
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

  it('reads the database: dead tuples on jobs and NOTIFY commit-lock waiters', async () => {
    const r = (await digest()).body;
    expect(r.database).toMatchObject({ notify_lock_waiters: 0 });
    expect(typeof r.database.jobs_dead_tuples).toBe('number');
    expect(r.findings.find((f: { code: string }) => f.code === 'notify_commit_lock')).toBeUndefined();
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
    expect(md).toContain('invalid number +# for <email> \\| code #');
    expect(md).toContain('## Deliverability');
  });
});

import { QueueGaugesTask } from '../src/observability/metrics/queue-gauges.task.js';
import { PacingService } from '../src/pacing/pacing.service.js';
import { RecordingConnector, RecordingConnectorModule, permanent, transient } from './helpers/recording-connector.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/** A sample's value in Prometheus text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /v1/metrics/prometheus', () => {
  let t: TestApp;
  let provider: RecordingConnector;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: { SMS_PROVIDER: 'recording', METRICS_GAUGE_INTERVAL_SECS: '3600' },
      imports: [RecordingConnectorModule],
    });
    provider = t.notifyd.app.get(RecordingConnector);
    project = await t.createProject('metricsco');
    await t.http
      .patch(`/v1/admin/projects/${project.id}`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ channels: ['email', 'sms', 'in_app'] });
  });
  afterAll(() => t?.close());

  const scrape = async (key = ADMIN_KEY) => {
    const res = await t.http.get('/v1/metrics/prometheus').set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(200);
    return res.text;
  };
  const send = (to: string) =>
    t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], to, body: 'hi' });

  it('admin and read-only keys (as a Prometheus bearer token) scrape it; a project key is 403', async () => {
    const res = await t.http.get('/v1/metrics/prometheus').set('Authorization', `Bearer ${READONLY_KEY}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('# TYPE notifyd_send_latency_seconds histogram');
    expect((await t.http.get('/v1/metrics/prometheus').set('X-Api-Key', project.key)).status).toBe(403);
    expect((await t.http.get('/v1/metrics/prometheus')).status).toBe(401);
  });

  it('counts outcomes, provider errors by kind and send latency from the worker', async () => {
    provider.script = (m) =>
      m.recipient.endsWith('02')
        ? permanent()
        : m.recipient.endsWith('03')
          ? transient()
          : { ok: true, providerMessageId: 'x' };
    for (const to of ['+33600000001', '+33600000002', '+33600000003', '+33600000004'])
      expect((await send(to)).status).toBe(200);
    await t.worker.drainOnce();
    const text = await scrape();
    expect(sample(text, 'notifyd_jobs_outcome_total{channel="sms",provider="recording",outcome="sent"}')).toBe(2);
    expect(sample(text, 'notifyd_jobs_outcome_total{channel="sms",provider="recording",outcome="failed"}')).toBe(1);
    expect(sample(text, 'notifyd_jobs_outcome_total{channel="sms",provider="recording",outcome="retry"}')).toBe(1);
    expect(sample(text, 'notifyd_provider_errors_total{channel="sms",provider="recording",kind="permanent"}')).toBe(1);
    expect(sample(text, 'notifyd_provider_errors_total{channel="sms",provider="recording",kind="transient"}')).toBe(1);
    // batchMax 1: one provider call per message.
    expect(sample(text, 'notifyd_send_latency_seconds_count{channel="sms",provider="recording"}')).toBe(4);
    expect(sample(text, 'notifyd_send_latency_seconds_bucket{le="20",channel="sms",provider="recording"}')).toBe(4);
  });

  it('queue gauges come from the last computation by one replica, not from each scrape', async () => {
    await t.db.sql(`DELETE FROM jobs`);
    // Asked for two minutes ago. The bulk ones wait behind a fair-share slot five minutes ahead
    // (run_at): they are two minutes late all the same, and the gauge says so.
    await t.db.sql(
      `INSERT INTO jobs (project_id, channel, recipient, status, priority, scheduled_at, run_at)
       SELECT $1, 'sms', '+3360000' || g, 'pending', CASE WHEN g = 1 THEN 10 ELSE 90 END, now() - interval '2 minutes',
              CASE WHEN g = 1 THEN now() - interval '2 minutes' ELSE now() + interval '5 minutes' END
         FROM generate_series(1, 3) g`,
      [project.id],
    );
    await t.notifyd.app.get(QueueGaugesTask).compute();
    const first = await scrape();
    expect(sample(first, 'notifyd_jobs_queue_depth{status="pending"}')).toBe(3);
    expect(sample(first, 'notifyd_jobs_queue_depth{status="processing"}')).toBe(0);
    expect(sample(first, 'notifyd_oldest_pending_age_seconds{band="urgent"}')).toBeGreaterThanOrEqual(119);
    expect(sample(first, 'notifyd_oldest_pending_age_seconds{band="bulk"}')).toBeGreaterThanOrEqual(119);
    expect(sample(first, 'notifyd_oldest_pending_age_seconds{band="normal"}')).toBe(0);
    // An api replica alone: no worker beats.
    expect(sample(first, 'notifyd_workers_alive')).toBe(0);

    // More work arrives: a scrape alone does not recount (METRICS_GAUGE_INTERVAL_SECS=3600 here).
    await send('+33600000009');
    expect(sample(await scrape(), 'notifyd_jobs_queue_depth{status="pending"}')).toBe(3);
    await t.notifyd.app.get(QueueGaugesTask).compute();
    expect(sample(await scrape(), 'notifyd_jobs_queue_depth{status="pending"}')).toBe(4);
    const [run] = await t.db.sql(`SELECT runs::int AS runs FROM periodic_runs WHERE task = 'metrics-gauges'`);
    expect(run.runs).toBe(1); // the boot tick; the two computes above were by hand
  });

  it('reports lane pauses from the shared lane state', async () => {
    const pacing = t.notifyd.app.get(PacingService);
    await pacing.pause({ channel: 'sms', provider: 'recording' }, 60_000, 'rate_limited', 'test 429');
    await t.notifyd.app.get(QueueGaugesTask).compute();
    expect(
      sample(await scrape(), 'notifyd_lane_pauses_total{lane="sms:recording",channel="sms",provider="recording"}'),
    ).toBeGreaterThanOrEqual(1);
    await pacing.resume({ channel: 'sms', provider: 'recording' });
  });

  it('reports failover breakers from the shared breaker table', async () => {
    await t.db.sql(
      `INSERT INTO provider_breakers (lane_key, channel, provider, fallback_provider, resting_until, trips_total, failovers_total)
       VALUES ('email:resend', 'email', 'resend', 'smtp', now() + interval '1 minute', 2, 57)`,
    );
    await t.notifyd.app.get(QueueGaugesTask).compute();
    const text = await scrape();
    const labels = '{lane="email:resend",channel="email",from="resend",to="smtp"}';
    expect(sample(text, `notifyd_failovers_total${labels}`)).toBe(57);
    expect(sample(text, `notifyd_failover_trips_total${labels}`)).toBe(2);
    expect(sample(text, `notifyd_failover_breaker_open${labels}`)).toBe(1);

    // The digest sees the same breaker open.
    const digest = (await t.http.get('/v1/admin/digest').set('X-Api-Key', ADMIN_KEY)).body;
    const finding = digest.findings.find((f: { code: string }) => f.code === 'failover_breaker_open');
    expect(finding).toMatchObject({ severity: 'warning' });
    expect(finding.message).toContain('resend is resting');
    await t.db.sql(`DELETE FROM provider_breakers`);
  });
});

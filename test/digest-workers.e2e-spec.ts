import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The digest and GET /v1/health notice a missing worker from the workers' own heartbeats
 * (worker_heartbeats): an api replica with due jobs and no live worker says so, critically,
 * with the fix; a worker replica beating on the same database silences it; a worker that
 * stopped, or that stopped beating without saying so, brings it back.
 */
describe('digest and health: a missing worker', () => {
  let api: TestApp;
  let worker: TestApp | undefined;
  let project: { id: string; key: string };

  beforeAll(async () => {
    api = await startTestApp();
    project = await api.createProject('workerless');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  const digest = async () => (await api.http.get('/v1/admin/digest?window=1h').set('X-Api-Key', ADMIN_KEY)).body;
  const finding = (report: { findings: { code: string }[] }) =>
    report.findings.find((f) => f.code === 'worker_missing') as Record<string, any> | undefined;
  const send = async (to: string) => {
    const res = await api.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], to, subject: 'Hi', body: 'Hello' });
    expect(res.status).toBe(200);
  };

  it('an api replica alone, with a due job: the digest has the critical finding with its fix, and /v1/health is degraded (HTTP 200)', async () => {
    await send('a@customer.example');
    const report = await digest();
    expect(report.workers).toEqual({ alive: 0, last_beat_at: null, alive_within_seconds: 60, processes: [] });
    expect(report.queue).toMatchObject({ pending: 1, due: 1, late: 1 });
    const f = finding(report)!;
    expect(f).toMatchObject({ severity: 'critical', code: 'worker_missing' });
    expect(f.message).toContain('No worker process has ever run against this database');
    expect(f.message).toContain('1 job(s) are due');
    expect(f.action).toContain('NOTIFYD_ROLE=worker');
    expect(f.harm).toMatchObject({ held: 1, projects: 1, channels: ['email'] });
    expect(report.findings[0].severity).toBe('critical');

    const health = await api.http.get('/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'degraded',
      db: 'ok',
      role: 'api',
      workers: { alive: 0, last_beat_at: null, due_jobs_waiting: true },
    });
    expect(health.body.reason).toContain('NOTIFYD_ROLE=worker');
    // Readiness is not the worker's business: an api replica stays in rotation.
    expect((await api.http.get('/v1/health/ready')).status).toBe(200);
  });

  it('a worker replica beats: with it alive the finding is gone, even while a due job waits on a paused lane', async () => {
    // Paused, the email lane keeps the next job due and unclaimed while the worker is alive.
    expect(
      (
        await api.http
          .post('/v1/admin/lanes/email:log/pause')
          .set('X-Api-Key', ADMIN_KEY)
          .send({ duration_secs: 600, reason: 'test' })
      ).status,
    ).toBe(200);
    worker = await startTestApp({ database: api.db, env: { NOTIFYD_ROLE: 'worker' } });
    const [row] = await api.db.sql(`SELECT role, host, pid, version, stopped_at FROM worker_heartbeats`);
    expect(row).toMatchObject({ role: 'worker', pid: process.pid, stopped_at: null });
    await send('b@customer.example');

    const report = await digest();
    expect(report.queue.due).toBeGreaterThan(0);
    expect(report.workers).toMatchObject({
      alive: 1,
      processes: [expect.objectContaining({ role: 'worker', alive: true, stopped_at: null })],
    });
    expect(finding(report)).toBeUndefined();
    const health = (await api.http.get('/v1/health')).body;
    expect(health).toMatchObject({ status: 'ok', workers: { alive: 1, due_jobs_waiting: true }, reason: null });
  });

  it('a worker that stopped gracefully, or that stopped beating without a word (crashed): the finding is back, naming its last beat', async () => {
    await worker!.close();
    worker = undefined;
    const [row] = await api.db.sql(`SELECT stopped_at FROM worker_heartbeats`);
    expect(row.stopped_at).not.toBeNull();
    let f = finding(await digest())!;
    expect(f.message).toMatch(/the last heartbeat came \d+ s ago \(.+, pid \d+, stopped\)/);
    expect(f.evidence).toMatchObject({ workers_alive: 0, due: expect.any(Number) });

    // A process that dies leaves its row as it was: not stopped, its last beat getting older.
    await api.db.sql(`UPDATE worker_heartbeats SET stopped_at = NULL, last_beat = now() - interval '3 minutes'`);
    f = finding(await digest())!;
    expect(f.message).toMatch(/the last heartbeat came 3 min ago \(.+, pid \d+, gone without stopping\)/);
    expect((await api.http.get('/v1/health')).body).toMatchObject({
      status: 'degraded',
      workers: { alive: 0, due_jobs_waiting: true },
    });
    // Within the last minute it would still count as alive.
    await api.db.sql(`UPDATE worker_heartbeats SET last_beat = now() - interval '50 seconds'`);
    expect(finding(await digest())).toBeUndefined();
  });

  it('a beat deletes the rows of processes silent for a week, and keeps the rest', async () => {
    await api.db.sql(
      `INSERT INTO worker_heartbeats (id, role, host, pid, version, started_at, last_beat)
       VALUES (gen_random_uuid(), 'worker', 'old-host', 1, '0.0.1', now() - interval '9 days', now() - interval '8 days'),
              (gen_random_uuid(), 'worker', 'recent-host', 2, '0.0.1', now() - interval '2 days', now() - interval '1 day')`,
    );
    const beater = await startTestApp({ database: api.db, env: { NOTIFYD_ROLE: 'worker' } });
    try {
      const hosts = (await api.db.sql(`SELECT host FROM worker_heartbeats ORDER BY last_beat`)).map((r) => r.host);
      expect(hosts).not.toContain('old-host');
      expect(hosts).toContain('recent-host');
    } finally {
      await beater.close();
    }
  });
});

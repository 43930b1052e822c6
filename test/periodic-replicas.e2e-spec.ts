import { spawnNotifyd, type NotifydProcess } from './helpers/spawn-notifyd.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

/**
 * Periodic work across real replicas: three worker processes on one database, each with its
 * own scheduled intervals (SchedulerRegistry), run each periodic task once per tick between
 * them (periodic_runs), not once per tick each.
 */
describe('periodic work once per tick across 3 replicas', () => {
  let db: TestDatabase;
  const replicas: NotifydProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.sql(`INSERT INTO projects (id, name) VALUES ('acme', 'Acme')`);
  });
  afterAll(async () => {
    for (const r of replicas) r.kill('SIGKILL');
    await Promise.all(replicas.map((r) => r.exited));
    await db.drop();
  });

  it('the reaper, the gauges and the webhook, workflow and inbox maintenance run at most once per interval between the three, and a lost job is taken back', async () => {
    // A job its worker lost 20 minutes ago (lease 10 min): the reaper must re-queue it exactly once.
    const [{ id }] = await db.sql<{ id: string }>(
      `INSERT INTO jobs (project_id, channel, recipient, status, attempts, claimed_at, error)
       VALUES ('acme', 'email', 'a@example.com', 'processing', 1, now() - interval '20 minutes', 'first try') RETURNING id`,
    );
    // Nothing delivers (no email provider): the re-queued job stays visible.
    const env = {
      WORKER_REAPER_INTERVAL_SECS: '1',
      METRICS_GAUGE_INTERVAL_SECS: '1',
      RETENTION_INTERVAL_SECS: '3600',
      EMAIL_PROVIDER: '',
      SMS_PROVIDER: '',
    };
    const [{ t0 }] = await db.sql<{ t0: Date }>(`SELECT now() AS t0`);
    replicas.push(...(await Promise.all([0, 1, 2].map(() => spawnNotifyd({ databaseUrl: db.url, env })))));

    const onceTasks = ['retention', 'webhook-maintenance', 'workflow-maintenance', 'inbox-purge', 'job-waiters-purge'];
    const read = async () => {
      const runs = await db.sql<{ task: string; runs: number; elapsed: number; last_ok: boolean | null }>(
        `SELECT task, runs::int AS runs, extract(epoch FROM now() - $1::timestamptz)::float8 AS elapsed, last_ok FROM periodic_runs ORDER BY task`,
        [t0],
      );
      return Object.fromEntries(runs.map((r) => [r.task, r]));
    };
    const finished = (r: { last_ok: boolean | null } | undefined) => r !== undefined && r.last_ok !== null;
    const jobStatus = async () => (await db.sql<{ status: string }>(`SELECT status FROM jobs WHERE id = $1`, [id]))[0];
    // Six seconds of three replicas ticking (long enough that uncoordinated timers would be
    // far over the bound), then, on a loaded machine, until two reaper and gauge ticks, every
    // first tick and the lost job's new attempt are in.
    await new Promise((r) => setTimeout(r, 6_000));
    let byTask = await read();
    for (let i = 0; i < 40; i++) {
      const done =
        byTask['reaper']?.runs >= 2 &&
        byTask['metrics-gauges']?.runs >= 2 &&
        [...onceTasks, 'inbox-snoozes'].every((task) => finished(byTask[task])) &&
        (await jobStatus()).status === 'failed';
      if (done) break;
      await new Promise((r) => setTimeout(r, 500));
      byTask = await read();
    }
    for (const task of ['reaper', 'metrics-gauges']) {
      const r = byTask[task];
      expect([task, r !== undefined]).toEqual([task, true]);
      // One run per 1 s tick at most, whatever the replica count (three uncoordinated timers
      // beating every second would make about three per second).
      expect(r.runs).toBeGreaterThanOrEqual(2);
      expect(r.runs).toBeLessThanOrEqual(Math.floor(r.elapsed) + 1);
      expect(r.last_ok).toBe(true);
    }
    // Retention (1 h), the webhook and workflow maintenance and the job waiters' purge (1 min)
    // and the inbox purge (10 min) ran once, on their first tick, on one replica.
    for (const task of onceTasks) {
      expect([task, byTask[task]?.runs, byTask[task]?.last_ok]).toEqual([task, 1, true]);
    }
    // The inbox snoozes (10 s): once per 10 s between the three.
    const snoozes = byTask['inbox-snoozes'];
    expect(snoozes?.last_ok).toBe(true);
    expect(snoozes.runs).toBeLessThanOrEqual(Math.floor(snoozes.elapsed / 10) + 1);

    const [job] = await db.sql<{ status: string; attempts: number; error: string }>(
      `SELECT status, attempts, error FROM jobs WHERE id = $1`,
      [id],
    );
    // Reaped (its lease long expired), claimed once more by one of the replicas, and failed
    // there for want of an email provider: one more attempt, not one per replica.
    expect(job).toMatchObject({ status: 'failed', attempts: 2 });
    expect(job.error).toContain('EMAIL_PROVIDER');

    // Every replica is alive and answered throughout.
    for (const r of replicas) expect(r.child.exitCode).toBeNull();
  });
});

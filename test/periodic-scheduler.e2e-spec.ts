import { SchedulerRegistry } from '@nestjs/schedule';
import { PeriodicTasks, schedulerName } from '../src/periodic/periodic-tasks.service.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

/** The periodic tasks of a worker replica, as its SchedulerRegistry names them. */
const WORKER_TASKS = [
  'reaper',
  'retention',
  'metrics-gauges',
  'webhook-maintenance',
  'workflow-maintenance',
  'inbox-snoozes',
  'inbox-purge',
  'digest-rollup',
  'job-waiters-purge',
].map(schedulerName);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Periodic work runs as Nest scheduled tasks: intervals in @nestjs/schedule's SchedulerRegistry,
 * registered at boot with the configured periods, in a worker replica too (a Nest application
 * context, no HTTP layer), each still once per tick across replicas through periodic_runs, and
 * removed at shutdown, where no tick starts and a running one is awaited within the grace.
 */
describe('periodic work on the Nest scheduler', () => {
  let db: TestDatabase;
  const env = {
    NOTIFYD_ROLE: 'worker',
    WORKER_REAPER_INTERVAL_SECS: '1',
    METRICS_GAUGE_INTERVAL_SECS: '1',
    SHUTDOWN_GRACE_SECS: '1',
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('two worker replicas register every task in their SchedulerRegistry and run each tick once between them', async () => {
    const replicas: TestApp[] = [];
    try {
      const [{ t0 }] = await db.sql<{ t0: Date }>(`SELECT now() AS t0`);
      replicas.push(...(await Promise.all([0, 1].map(() => startTestApp({ database: db, env })))));
      for (const r of replicas) {
        const registry = r.notifyd.app.get(SchedulerRegistry);
        expect(registry.getIntervals()).toEqual(expect.arrayContaining(WORKER_TASKS));
      }
      await sleep(4_500);
      const count = async () =>
        (
          await db.sql<{ runs: number; elapsed: number; by: number }>(
            `SELECT runs::int AS runs, extract(epoch FROM now() - $1::timestamptz)::float8 AS elapsed, last_ok
             FROM periodic_runs WHERE task = 'reaper'`,
            [t0],
          )
        )[0];
      const reaper = await count();
      // Each 1 s tick once between the two (two uncoordinated timers would make about two per second).
      expect(reaper.runs).toBeGreaterThanOrEqual(2);
      expect(reaper.runs).toBeLessThanOrEqual(Math.floor(reaper.elapsed) + 1);
      expect(reaper).toMatchObject({ last_ok: true });

      // The registry holds the live timers: once both replicas' reaper intervals are deleted
      // from it, the reaper never runs again.
      for (const r of replicas) r.notifyd.app.get(SchedulerRegistry).deleteInterval(schedulerName('reaper'));
      const stopped = (await count()).runs;
      await sleep(2_500);
      expect((await count()).runs).toBeLessThanOrEqual(stopped + 1);
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }
  });

  it('at shutdown: no tick starts once close() begins, a running one is awaited, and the intervals are gone', async () => {
    const t = await startTestApp({ database: db, env: { ...env, SHUTDOWN_GRACE_SECS: '10' } });
    const periodic = t.notifyd.app.get(PeriodicTasks);
    const registry = t.notifyd.app.get(SchedulerRegistry);
    const starts: number[] = [];
    let slowStarted!: () => void;
    const slowRunning = new Promise<void>((resolve) => (slowStarted = resolve));
    let slowEnded = 0;
    periodic.every('close-slow', 60_000, async () => {
      slowStarted();
      await sleep(1_500);
      slowEnded = Date.now();
    });
    // Due every second: without the shutdown guard it would start again during the 1.5 s wait.
    periodic.every('close-fast', 1_000, async () => void starts.push(Date.now()));
    await slowRunning;
    await sleep(1_100);
    expect(starts.length).toBeGreaterThanOrEqual(1);

    const closeBegan = Date.now();
    const closing = t.close();
    // Taken off the registry at once, before the other modules shut down.
    expect(registry.doesExist('interval', schedulerName('close-fast'))).toBe(false);
    await closing;
    const closed = Date.now();
    expect(slowEnded).toBeGreaterThan(0);
    expect(slowEnded).toBeLessThanOrEqual(closed);
    expect(starts.filter((at) => at >= closeBegan)).toEqual([]);
    expect(registry.getIntervals()).toEqual([]);
    const [slow] = await db.sql(
      `SELECT last_ok, finished_at IS NOT NULL AS finished FROM periodic_runs WHERE task = 'close-slow'`,
    );
    expect(slow).toEqual({ last_ok: true, finished: true });
  });

  it('a tick still running when the grace (SHUTDOWN_GRACE_SECS) runs out does not hold the shutdown', async () => {
    const t = await startTestApp({ database: db, env: { ...env, SHUTDOWN_GRACE_SECS: '1' } });
    const periodic = t.notifyd.app.get(PeriodicTasks);
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    periodic.every('close-stuck', 60_000, async () => {
      started();
      await stuck;
    });
    await running;
    const began = Date.now();
    await t.close();
    // The grace (1 s), then the rest of the shutdown (seconds on a loaded machine); far less than a task that never ends.
    expect(Date.now() - began).toBeLessThan(20_000);
    release();
  });
});

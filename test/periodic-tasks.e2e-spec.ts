import { Db } from '../src/database/db.js';
import { PeriodicTasks } from '../src/periodic/periodic-tasks.service.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * A periodic task holds no pooled connection while it runs. Leader sections used to keep one
 * in an advisory-lock transaction while their statements took others; several at once (they
 * all fire at boot) exhausted a small pool and the process waited for itself for good.
 */
describe('periodic tasks on a small pool', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { DATABASE_MAX_CONNECTIONS: '2' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('four tasks in flight at once on a 2-connection pool all run their statements to the end', async () => {
    const periodic = t.notifyd.app.get(PeriodicTasks);
    const db = t.notifyd.app.get(Db);
    const names = ['pool-a', 'pool-b', 'pool-c', 'pool-d'];
    // Each task queries, waits until all four are inside their task, then queries again: if
    // running a task pinned a connection, only two could get in and neither could go on.
    let inside = 0;
    let allInside!: () => void;
    const barrier = new Promise<void>((resolve) => (allInside = resolve));
    const task = async () => {
      await db.one('SELECT 1');
      if (++inside === names.length) allInside();
      await barrier;
      await db.one('SELECT 1');
    };
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), 30_000)));
    const outcome = await Promise.race([
      Promise.all(names.map((name) => periodic.runIfDue(name, 60_000, task))),
      stuck,
    ]);
    clearTimeout(timer);
    expect([outcome, inside]).toEqual([[true, true, true, true], 4]);
    const rows = await t.db.sql(`SELECT task, last_ok FROM periodic_runs WHERE task = ANY($1) ORDER BY task`, [names]);
    expect(rows).toEqual(names.map((task) => ({ task, last_ok: true })));
  });
});

import { MIGRATIONS } from '../../migrations/index.js';
import { spawnNotifyd, type NotifydProcess } from '../helpers/spawn-notifyd.js';
import { createEmptyDatabase, type TestDatabase } from '../helpers/test-database.js';
import { verdict } from './verdict.js';

/**
 * Five notifyd processes (dist/, as `notifyd serve` runs) start at the same moment on a
 * database that has no tables yet: the migration lock lets exactly one of them apply each
 * migration, and all five come up ready.
 */
describe('faults: five instances booting together', () => {
  let db: TestDatabase;
  const processes: NotifydProcess[] = [];

  beforeAll(async () => {
    db = await createEmptyDatabase();
  });
  afterAll(async () => {
    for (const p of processes) p.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await db.drop();
  });

  it('migrate exactly once, and every instance starts', async () => {
    const started = await Promise.allSettled(
      Array.from({ length: 5 }, async (_, i) => {
        const p = await spawnNotifyd({
          databaseUrl: db.url,
          env: { NOTIFYD_ROLE: i % 2 ? 'worker' : 'api' },
          startTimeoutMs: 180_000,
        });
        processes.push(p);
        return p;
      }),
    );
    const failures = started
      .filter((s) => s.status === 'rejected')
      .map((s) => String((s as PromiseRejectedResult).reason));
    expect(failures).toEqual([]);

    const rows = await db.sql<{ name: string; n: number }>(
      `SELECT name, count(*)::int AS n FROM notifyd_migrations GROUP BY name ORDER BY min(id)`,
    );
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ name: m.name, n: 1 })));

    for (const p of processes) p.kill('SIGTERM');
    const exits = await Promise.all(processes.map((p) => p.exited));
    expect(exits.every((e) => e.code === 0)).toBe(true);
    verdict('five-instances-boot', {
      instances: 5,
      ready: 5 - failures.length,
      migrations: MIGRATIONS.length,
      appliedTwice: rows.filter((r) => r.n > 1).length,
      cleanExits: exits.filter((e) => e.code === 0).length,
    });
  }, 240_000);
});

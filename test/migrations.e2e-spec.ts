import { createDataSource } from '../src/database/data-source.js';
import { pendingMigrations, revertLastMigration, runMigrations } from '../src/database/migration-runner.js';
import { startNotifyd } from '../src/main.js';
import { MIGRATIONS } from '../migrations/index.js';
import { ADMIN_KEY, startTestApp } from './helpers/test-app.js';
import { createEmptyDatabase } from './helpers/test-database.js';

const env = (url: string, extra: Record<string, string> = {}) => ({
  DATABASE_URL: url,
  ADMIN_API_KEY: ADMIN_KEY,
  JWT_SECRET: 'test-jwt-secret-0123456789abcdef',
  NOTIFYD_ROLE: 'api',
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'silent',
  DATABASE_MAX_CONNECTIONS: '3',
  ...extra,
});

describe('migrations', () => {
  // Five instances booting together on an empty database: test/faults/boot.fault-spec.ts
  // (real processes, in the slow suite).

  it('every migration reverts cleanly and applies again', async () => {
    const db = await createEmptyDatabase();
    const dataSource = createDataSource({ url: db.url, maxConnections: 2, statementTimeoutMs: 0 });
    await dataSource.initialize();
    try {
      await runMigrations(dataSource);
      for (let i = 0; i < MIGRATIONS.length; i++) await revertLastMigration(dataSource);
      const tables = await db.sql(
        `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'notifyd_migrations'`,
      );
      expect(tables).toEqual([]);
      expect(await pendingMigrations(dataSource)).toHaveLength(MIGRATIONS.length);
      expect(await runMigrations(dataSource)).toHaveLength(MIGRATIONS.length);
      expect(await pendingMigrations(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
      await db.drop();
    }
  });

  it('readiness fails while migrations are pending (NOTIFYD_MIGRATE_ON_BOOT=false) and passes once they ran', async () => {
    const db = await createEmptyDatabase();
    const notifyd = await startNotifyd({ env: env(db.url, { NOTIFYD_MIGRATE_ON_BOOT: 'false' }), logger: false });
    try {
      const url = notifyd.url!;
      const before = await fetch(`${url}/v1/health/ready`);
      expect(before.status).toBe(503);
      expect(await before.json()).toMatchObject({
        ready: false,
        db: 'ok',
        pending_migrations: MIGRATIONS.map((m) => m.name),
      });
      await runMigrations(notifyd.database.dataSource);
      const after = await fetch(`${url}/v1/health/ready`);
      expect(after.status).toBe(200);
      expect(await after.json()).toEqual({ ready: true, db: 'ok', pending_migrations: [], reason: null });
    } finally {
      await notifyd.close();
      await db.drop();
    }
  });
});

describe('health', () => {
  it('reports the database; readiness fails when it becomes unreachable', async () => {
    const t = await startTestApp();
    try {
      const ok = await t.http.get('/v1/health');
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        status: 'ok',
        db: 'ok',
        role: 'api',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      });
      expect((await t.http.get('/v1/health/ready')).status).toBe(200);
      await t.db.drop(); // the database disappears under the running app
      const degraded = await t.http.get('/v1/health');
      expect(degraded.body).toMatchObject({ status: 'degraded', db: 'error' });
      const notReady = await t.http.get('/v1/health/ready');
      expect(notReady.status).toBe(503);
      expect(notReady.body.reason).toMatch(/database does not answer/);
    } finally {
      await t.notifyd.close();
    }
  });
});

import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { MIGRATIONS_TABLE } from './data-source.js';

/** Any constant shared by every notifyd replica: the key of the migration advisory lock. */
const MIGRATION_LOCK_KEY = 0x6e6f7469; // "noti"

/**
 * Runs pending migrations while holding a session advisory lock, so that replicas booting
 * together migrate exactly once: the first takes the lock and migrates, the others wait on
 * the lock and then find nothing pending. TypeORM's runner takes no lock of its own.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lockRunner.release();
  }
}

/** Names of the migrations this build knows that the database has not applied yet. */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  const exists = await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [MIGRATIONS_TABLE]);
  const known = MIGRATIONS.map((m) => new m().name ?? m.name);
  if (!exists[0].exists) return known;
  const rows: { name: string }[] = await dataSource.query(`SELECT name FROM ${MIGRATIONS_TABLE}`);
  const applied = new Set(rows.map((r) => r.name));
  return known.filter((name) => !applied.has(name));
}

/** Reverts the newest migration (for `notifyd migrate --down`). */
export async function revertLastMigration(dataSource: DataSource): Promise<void> {
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.undoLastMigration({ transaction: 'each' });
  } finally {
    await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lockRunner.release();
  }
}

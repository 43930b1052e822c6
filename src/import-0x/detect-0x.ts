import { REQUIRED_COLUMNS, SOURCE_COLUMNS } from './sql/source.sql.js';
import type { SqlRunner } from './sql-runner.js';

/** The source is not a notifyd 0.x database this import can read; the message says what it is instead and what to do. */
export class NotA0xDatabase extends Error {}

/**
 * Refuses anything but a notifyd 0.x database at its newest schema (0.4.x, migrations up to
 * 024): 0.x's migrations are run by sqlx, which leaves `_sqlx_migrations`; its tables are
 * recognisable by their columns (email_suppressions, subscriber_preferences.workflow_id,
 * projects.api_key_hash). This notifyd's own database (TypeORM's `migrations`, `suppressions`)
 * is named as such, since pointing --from at the wrong URL is the likeliest mistake.
 */
export async function assertNotifyd0x(source: SqlRunner): Promise<void> {
  const tables = new Map(
    (await source.query<{ table: string; columns: string[] }>(SOURCE_COLUMNS)).map((r) => [
      r.table,
      new Set(r.columns),
    ]),
  );
  if (tables.has('suppressions') && tables.has('job_outcome_hourly')) {
    throw new NotA0xDatabase(
      'the source is a database of this notifyd, not of notifyd 0.x: --from must point at the database of the old (Rust) notifyd',
    );
  }
  const zeroX = ['projects', 'subscribers', 'jobs', 'email_suppressions', 'subscriber_preferences'];
  const present = zeroX.filter((t) => tables.has(t));
  if (!tables.has('_sqlx_migrations') || present.length < 3) {
    throw new NotA0xDatabase(
      `the source is not a notifyd 0.x database: it ${tables.has('_sqlx_migrations') ? 'has' : 'has no'} _sqlx_migrations table and ${present.length ? `only ${present.join(', ')} of` : 'none of'} 0.x's tables ${zeroX.join(', ')}. --from must point at the database of the old (Rust) notifyd`,
    );
  }
  const missing = Object.entries(REQUIRED_COLUMNS).flatMap(([table, columns]) => {
    const have = tables.get(table);
    if (!have) return [`table ${table}`];
    return columns.filter((c) => !have.has(c)).map((c) => `${table}.${c}`);
  });
  if (missing.length) {
    throw new NotA0xDatabase(
      `the source is a notifyd 0.x database older than 0.4 (it lacks ${missing.slice(0, 8).join(', ')}${missing.length > 8 ? ', …' : ''}): start notifyd 0.4 on it once (it migrates at boot), then import`,
    );
  }
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDataSource } from '../../src/database/data-source.js';
import { runMigrations } from '../../src/database/migration-runner.js';

export interface TestDatabase {
  url: string;
  name: string;
  /** A plain client for assertions and fixtures (SQL straight to the tables). */
  sql<T extends pg.QueryResultRow = Record<string, any>>(text: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function server(): { serverUrl: string; template: string } {
  const serverUrl = process.env.NOTIFYD_TEST_SERVER_URL;
  const template = process.env.NOTIFYD_TEST_TEMPLATE_DB;
  if (!serverUrl || !template)
    throw new Error('test database server not set up: run the tests through `npm test` (jest globalSetup)');
  return { serverUrl, template };
}

/** Migrates the run's template once, whichever test file gets here first. */
async function ensureTemplateMigrated(admin: pg.Client, serverUrl: string, template: string): Promise<void> {
  await admin.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
  try {
    const dataSource = createDataSource({
      url: withDatabase(serverUrl, template),
      maxConnections: 2,
      statementTimeoutMs: 0,
    });
    await dataSource.initialize();
    try {
      await runMigrations(dataSource);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
  }
}

/** An empty database with no schema, for tests of migrations themselves. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  return create(false);
}

/** A fresh, migrated database for one test file, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  return create(true);
}

async function create(migrated: boolean): Promise<TestDatabase> {
  const { serverUrl, template } = server();
  const name = `${template}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  try {
    if (migrated) {
      await ensureTemplateMigrated(admin, serverUrl, template);
      // CREATE DATABASE … TEMPLATE needs the template to have no other session: serialise clones.
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      } finally {
        await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
      }
    } else {
      await admin.query(`CREATE DATABASE ${name}`);
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined);
  return {
    url,
    name,
    async sql(text, params) {
      return (await pool.query(text, params)).rows;
    },
    async drop() {
      await pool.end();
      const a = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

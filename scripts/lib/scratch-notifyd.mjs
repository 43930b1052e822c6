// A throwaway notifyd from the build in dist/: on a temporary database created on
// DATABASE_URL's server (dropped on close), or, without DATABASE_URL, on an embedded
// PostgreSQL in a temporary directory (removed on close). Used by scripts that need the real
// application: the clients' generator (its OpenAPI document) and the clients' test runner.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startNotifyd } from '../../dist/src/main.js';

async function admin(server, sql) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Starts notifyd with `env` on top of the process environment; `close()` removes every trace. */
export async function startScratchNotifyd({ env = {}, listen = false, name = 'scratch' } = {}) {
  const server = process.env.DATABASE_URL;
  const scratch = `notifyd_${name}_${process.pid}`;
  let databaseUrl;
  if (server) {
    await admin(server, `CREATE DATABASE ${scratch}`);
    const url = new URL(server);
    url.pathname = `/${scratch}`;
    databaseUrl = url.toString();
  }
  const dataDir = server ? undefined : mkdtempSync(join(tmpdir(), `notifyd-${name}-`));
  // The embedded PostgreSQL runs as the `postgres` user when this runs as root: it must enter the directory (mkdtemp makes it 0700).
  if (dataDir) chmodSync(dataDir, 0o755);
  const drop = async () => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (server) await admin(server, `DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  };
  let notifyd;
  try {
    notifyd = await startNotifyd({
      // With a database given it is a production start, which needs a JWT_SECRET (any will do for a scratch instance).
      env: {
        ...process.env,
        LOG_LEVEL: 'error',
        ...(databaseUrl
          ? { DATABASE_URL: databaseUrl, JWT_SECRET: process.env.JWT_SECRET || randomBytes(24).toString('hex') }
          : { NOTIFYD_DATA_DIR: dataDir }),
        ...env,
      },
      listen,
      logger: false,
    });
  } catch (err) {
    await drop();
    throw err;
  }
  return {
    notifyd,
    async close() {
      await notifyd.close();
      await drop();
    },
  };
}

import pg from 'pg';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as { __notifydTest?: { stop?: () => Promise<void>; serverUrl: string; template: string } })
    .__notifydTest;
  if (!state) return;
  if (state.stop) {
    await state.stop();
    return;
  }
  // On a shared server, leave nothing behind: the template and any test database still there.
  const url = new URL(state.serverUrl);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
    `${state.template}%`,
  ]);
  for (const { datname } of rows)
    await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
}

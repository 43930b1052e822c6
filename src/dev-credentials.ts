import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generateProjectKey } from './projects/auth/api-keys.js';

/**
 * Credentials notifyd makes for itself on a first start with the embedded database and no
 * ADMIN_API_KEY, so that a newcomer's first `curl` works. They live next to the data (mode 600).
 * A production setup sets its own keys.
 */
export interface DevCredentials {
  adminApiKey: string;
  jwtSecret: string;
  defaultProjectKey: string;
  file: string;
  /** True on the start that generated (some of) them: the only start that prints them to a log. */
  created: boolean;
}

export async function loadOrCreateDevCredentials(dataDir: string): Promise<DevCredentials> {
  const file = join(resolve(dataDir), 'credentials.json');
  const saved = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as Partial<DevCredentials>,
    () => ({}) as Partial<DevCredentials>,
  );
  const created = !saved.adminApiKey || !saved.jwtSecret || !saved.defaultProjectKey;
  const credentials: DevCredentials = {
    adminApiKey: saved.adminApiKey ?? `adm_${randomBytes(24).toString('hex')}`,
    jwtSecret: saved.jwtSecret ?? randomBytes(32).toString('hex'),
    defaultProjectKey: saved.defaultProjectKey ?? generateProjectKey('default'),
    file,
    created,
  };
  if (created) {
    await mkdir(resolve(dataDir), { recursive: true, mode: 0o755 });
    const { file: _file, created: _created, ...stored } = credentials;
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return credentials;
}

/**
 * The start banner. The keys appear on the start that created them, or when stdout is a
 * terminal (a person at their own screen); otherwise stdout is a log a supervisor keeps, and the
 * banner says where the keys are instead (issue 18: keys printed on every start ended up in logs).
 */
export function devBanner(url: string, dataDir: string, c: DevCredentials, out: { tty: boolean }): string {
  const body = JSON.stringify({ channels: ['in_app'], subscriber_id: 'alice', body: 'Hello from notifyd' });
  const send = (key: string) =>
    `    curl -s -X POST ${url}/v1/send -H "X-Api-Key: ${key}" -H 'Content-Type: application/json' -d '${body}'`;
  const head = `notifyd is running at ${url} on the embedded PostgreSQL (data in ${dataDir}).`;
  if (!c.created && !out.tty) {
    return [
      '',
      head,
      `  Admin key and project "default" key: in ${c.file} (printed on the start that created them).`,
      '  Set DATABASE_URL, ADMIN_API_KEY and JWT_SECRET for production.',
      `  API docs:                   ${url}/docs`,
      '  Send an in-app message to the demo subscriber "alice":',
      send(`$(node -p "require('${c.file}').defaultProjectKey")`),
      '',
    ].join('\n');
  }
  return [
    '',
    head,
    `  Admin key (ADMIN_API_KEY):  ${c.adminApiKey}`,
    `  Project "default" key:      ${c.defaultProjectKey}`,
    `  Both are kept in ${c.file}; set DATABASE_URL, ADMIN_API_KEY and JWT_SECRET for production.`,
    `  API docs:                   ${url}/docs`,
    '  Send an in-app message to the demo subscriber "alice":',
    send(c.defaultProjectKey),
    '',
  ].join('\n');
}

import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generateProjectKey } from './common/auth/api-keys.js';

/**
 * Credentials notifyd makes for itself on a first start with the embedded database and no
 * ADMIN_API_KEY, so that a newcomer's first `curl` works. They live next to the data
 * (mode 600) and are printed at each start; a production setup sets its own keys.
 */
export interface DevCredentials {
  adminApiKey: string;
  jwtSecret: string;
  defaultProjectKey: string;
  file: string;
}

export async function loadOrCreateDevCredentials(dataDir: string): Promise<DevCredentials> {
  const file = join(resolve(dataDir), 'credentials.json');
  const saved = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as Partial<DevCredentials>,
    () => ({}) as Partial<DevCredentials>,
  );
  const credentials: DevCredentials = {
    adminApiKey: saved.adminApiKey ?? `adm_${randomBytes(24).toString('hex')}`,
    jwtSecret: saved.jwtSecret ?? randomBytes(32).toString('hex'),
    defaultProjectKey: saved.defaultProjectKey ?? generateProjectKey('default'),
    file,
  };
  if (!saved.adminApiKey || !saved.jwtSecret || !saved.defaultProjectKey) {
    await mkdir(resolve(dataDir), { recursive: true, mode: 0o755 });
    const { file: _file, ...stored } = credentials;
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return credentials;
}

export function devBanner(url: string, dataDir: string, c: DevCredentials): string {
  const body = JSON.stringify({ channels: ['in_app'], subscriber_id: 'alice', body: 'Hello from notifyd' });
  return [
    '',
    `notifyd is running at ${url} on the embedded PostgreSQL (data in ${dataDir}).`,
    `  Admin key (ADMIN_API_KEY):  ${c.adminApiKey}`,
    `  Project "default" key:      ${c.defaultProjectKey}`,
    `  Both are kept in ${c.file}; set DATABASE_URL and ADMIN_API_KEY for production.`,
    `  API docs:                   ${url}/docs`,
    '  Send an in-app message to the demo subscriber "alice":',
    `    curl -s -X POST ${url}/v1/send -H 'X-Api-Key: ${c.defaultProjectKey}' -H 'Content-Type: application/json' -d '${body}'`,
    '',
  ].join('\n');
}

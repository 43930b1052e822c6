import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devBanner, loadOrCreateDevCredentials } from '../../src/dev-credentials.js';

/**
 * Issue 18, finding "secrets in logs (banner)": the embedded start printed the admin key and the
 * default project key on every start, so they ended up in every log a process supervisor keeps.
 * They are printed on the start that created them, or when stdout is a terminal; later starts
 * say where they are. (test/cli.e2e-spec.ts runs the real first start and restart.)
 */
describe('the embedded start banner', () => {
  const url = 'http://127.0.0.1:3400';
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'notifyd-banner-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('shows the keys on the start that created them, and only where the file is afterwards', async () => {
    const first = await loadOrCreateDevCredentials(dataDir);
    const later = await loadOrCreateDevCredentials(dataDir);
    expect(later.adminApiKey).toBe(first.adminApiKey);
    expect(statSync(first.file).mode & 0o777).toBe(0o600);

    const created = devBanner(url, dataDir, first, { tty: false });
    expect(created).toContain(first.adminApiKey);
    expect(created).toContain(first.defaultProjectKey);

    const restarted = devBanner(url, dataDir, later, { tty: false });
    for (const secret of [later.adminApiKey, later.defaultProjectKey, later.jwtSecret])
      expect(restarted).not.toContain(secret);
    expect(restarted).toContain(later.file);
    expect(restarted).toContain(`${url}/v1/send`); // the curl is still there, reading the key from the file
  });

  it('shows them again on a terminal (a person reading their own screen)', async () => {
    await loadOrCreateDevCredentials(dataDir);
    const later = await loadOrCreateDevCredentials(dataDir);
    const banner = devBanner(url, dataDir, later, { tty: true });
    expect(banner).toContain(later.adminApiKey);
    expect(banner).toContain(later.defaultProjectKey);
  });

  it('a credentials file missing a key is completed and counts as a creation (the new key is shown once)', async () => {
    const first = await loadOrCreateDevCredentials(dataDir);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      first.file,
      JSON.stringify({ adminApiKey: first.adminApiKey, defaultProjectKey: first.defaultProjectKey }),
    );
    const completed = await loadOrCreateDevCredentials(dataDir);
    expect(completed.jwtSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(devBanner(url, dataDir, completed, { tty: false })).toContain(completed.adminApiKey);
    expect(devBanner(url, dataDir, await loadOrCreateDevCredentials(dataDir), { tty: false })).not.toContain(
      completed.adminApiKey,
    );
  });
});

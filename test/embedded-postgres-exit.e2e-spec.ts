import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const module = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src', 'database', 'embedded-postgres.js');

/** Runs a module script that starts an embedded cluster in `dataDir`; resolves with its exit code and stderr. */
function script(body: string, dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const source = `import { startEmbeddedPostgres } from ${JSON.stringify(module)};
const db = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, persistent: true });
${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The embedded-postgres package hooks process exit (async-exit-hook) and, on a process that ends
 * on its own, called its shutdown without the callback it then calls: "done is not a function",
 * exit code 1, on every script that used the embedded cluster (`npm run llms`). notifyd removes
 * those hooks and keeps its own synchronous safety net.
 */
describe('a process that used the embedded PostgreSQL exits cleanly', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'notifyd-embedded-exit-'));
    chmodSync(dataDir, 0o755); // as root, the cluster runs as the postgres user, who must enter it
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a script that stops its cluster and ends on its own exits 0, with nothing on stderr', async () => {
    const { code, stderr } = await script('await db.stop();', dataDir);
    expect(stderr).not.toMatch(/done is not a function/);
    expect(code).toBe(0);
  }, 90_000);

  it('a process that exits without stopping its cluster does not leave the postmaster running', async () => {
    const { code } = await script(
      `import { writeFileSync } from 'node:fs';
const pid = (await import('node:fs')).readFileSync(${JSON.stringify(join(dataDir, 'pg', 'postmaster.pid'))}, 'utf8').split('\\n')[0];
writeFileSync(${JSON.stringify(join(dataDir, 'postmaster-pid'))}, pid);
process.exit(0);`,
      dataDir,
    );
    expect(code).toBe(0);
    const pid = Number(readFileSync(join(dataDir, 'postmaster-pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    let running = alive(pid);
    for (let i = 0; i < 200 && running; i++) {
      await new Promise((r) => setTimeout(r, 100));
      running = alive(pid);
    }
    expect(running).toBe(false);
  }, 90_000);
});

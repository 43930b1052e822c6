import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cli, notifyd } from './helpers/notifyd-cli.js';
import { spawnNotifyd, type NotifydProcess } from './helpers/spawn-notifyd.js';
import { ADMIN_KEY, READONLY_KEY } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

describe('notifyd client commands against a running instance', () => {
  let db: TestDatabase;
  let server: NotifydProcess;
  let env: Record<string, string>;
  const as = (key: string) => ({ ...env, NOTIFYD_ADMIN_API_KEY: key });

  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first');
    db = await createTestDatabase();
    server = await spawnNotifyd({
      databaseUrl: db.url,
      env: { NOTIFYD_ROLE: 'all', SMS_PROVIDER: 'log', EMAIL_PROVIDER: 'log', WORKER_POLL_INTERVAL_MS: '200' },
    });
    env = { NOTIFYD_URL: server.url!, NOTIFYD_ADMIN_API_KEY: ADMIN_KEY };
  });
  afterAll(async () => {
    server?.kill();
    await server?.exited;
    await db?.drop();
  });

  it('exit codes say what went wrong: no key 64, unreachable 69, key refused 77, bad usage 64', async () => {
    const noKey = await notifyd(['jobs'], { NOTIFYD_URL: server.url! });
    expect(noKey.code).toBe(64);
    expect(noKey.stderr).toMatch(/NOTIFYD_ADMIN_API_KEY/);
    const down = await notifyd(['jobs'], { NOTIFYD_URL: 'http://127.0.0.1:1', NOTIFYD_ADMIN_API_KEY: ADMIN_KEY });
    expect(down.code).toBe(69);
    expect(down.stderr).toMatch(/Cannot reach notifyd at http:\/\/127\.0\.0\.1:1/);
    expect((await notifyd(['jobs'], as('wrong-key-0123456789abcdef'))).code).toBe(77);
    const usage = await notifyd(['jobs', '--colour', 'red'], env);
    expect(usage.code).toBe(64);
    expect(usage.stderr).toMatch(/colour/);
    expect((await notifyd(['jobs', '--since', 'yesterday'], env)).stderr).toMatch(/--since must be a span such as 30m/);
  });

  it('keys: creates a project (key printed once), lists hints, rotates and revokes', async () => {
    const created = await notifyd(['keys', 'create', 'cli-acme', '--name', 'Acme'], env);
    expect(created.code).toBe(0);
    const key = created.stdout.split('\n')[0];
    expect(key).toMatch(/^sk_cli-acme_[0-9a-f]{32}$/);
    const listed = await notifyd(['keys'], env);
    expect(listed.stdout).toMatch(/^PROJECT\s+NAME\s+KEY/);
    expect(listed.stdout).toMatch(/cli-acme\s+Acme\s+sk_cli-acme_…/);
    expect(listed.stdout).not.toContain(key);
    const again = await notifyd(['keys', 'create', 'cli-acme'], env);
    expect(again.code).toBe(4);
    const rotated = await notifyd(['keys', 'rotate', 'cli-acme', '--json'], env);
    expect(JSON.parse(rotated.stdout).new_api_key).toMatch(/^sk_cli-acme_/);
    expect((await notifyd(['keys', 'revoke', 'cli-acme'], env)).code).toBe(0);
    expect((await notifyd(['keys', 'rotate', 'nobody'], env)).code).toBe(3);
  });

  it('send-test, then job, jobs (table and --json), cancel refused on a sent job', async () => {
    const test = await notifyd(
      [
        'send-test',
        '--project',
        'cli-acme',
        '--channel',
        'sms',
        '--to',
        '+33600000501',
        '--body',
        'from the CLI',
        '--json',
      ],
      env,
    );
    expect(test.code).toBe(0);
    const { id } = JSON.parse(test.stdout);
    let job: Record<string, unknown> = {};
    for (let i = 0; i < 50 && job.status !== 'sent'; i++) {
      job = JSON.parse((await notifyd(['job', id, '--json'], env)).stdout);
      if (job.status !== 'sent') await new Promise((r) => setTimeout(r, 200));
    }
    expect(job).toMatchObject({ id, status: 'sent', channel: 'sms' });
    const shown = await notifyd(['job', id], env);
    expect(shown.stdout).toMatch(new RegExp(`^id\\s+${id}$`, 'm'));

    const table = await notifyd(['jobs', '--project', 'cli-acme', '--since', '1h'], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+PROJECT\s+CHANNEL\s+STATUS/);
    expect(table.stdout).toContain(id);
    const json = JSON.parse((await notifyd(['jobs', '--project', 'cli-acme', '--json'], env)).stdout);
    expect(json.jobs.map((j: { id: string }) => j.id)).toContain(id);

    const cancelSent = await notifyd(['cancel', id], env);
    expect(cancelSent.code).toBe(4);
    expect(cancelSent.stdout).toMatch(/refused: Job is sent/);
    expect((await notifyd(['job', '6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f'], env)).code).toBe(3);
    expect((await notifyd(['job', 'not-a-uuid'], env)).code).toBe(65);
    const missing = await notifyd(['send-test', '--project', 'cli-acme'], env);
    expect(missing.code).toBe(64);
  });

  it('retry --failed re-queues every failed job that matches, without a progress bar when piped', async () => {
    for (let i = 0; i < 3; i++)
      await notifyd(['send-test', '--project', 'cli-acme', '--channel', 'sms', '--to', `+3360000060${i}`], env);
    // Until the worker has sent all three: a job it still holds would be written 'sent' over the 'failed' below.
    for (let i = 0; i < 200; i++) {
      const [{ sent }] = await db.sql(
        `SELECT count(*)::int AS sent FROM jobs WHERE project_id = 'cli-acme' AND recipient LIKE '+3360000060%' AND status = 'sent'`,
      );
      if (sent === 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await db.sql(
      `UPDATE jobs SET status = 'failed', error = 'HTTP 503' WHERE project_id = 'cli-acme' AND recipient LIKE '+3360000060%'`,
    );
    const result = await notifyd(['retry', '--failed', '--project', 'cli-acme'], env);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(3);
    expect(result.stdout).toMatch(/ok: queued again/);
    expect(result.stderr).toBe('');
    const [{ count }] = await db.sql(
      `SELECT count(*)::int AS count FROM jobs WHERE project_id = 'cli-acme' AND status = 'failed'`,
    );
    expect(count).toBe(0);
    // The read-only key may read but not retry: 77.
    await db.sql(`UPDATE jobs SET status = 'failed' WHERE project_id = 'cli-acme' AND recipient = '+33600000600'`);
    expect((await notifyd(['retry', '--failed', '--project', 'cli-acme'], as(READONLY_KEY))).code).toBe(77);
  });

  it('jobs --all pages past 500 rows (cursor), and --json piped to a slow reader arrives whole (no cut at 65 536 bytes)', async () => {
    // 1 234 jobs of one project, queued for tomorrow so the worker leaves them be.
    await db.sql(`
      INSERT INTO jobs (project_id, channel, recipient, payload, scheduled_at, run_at, created_at)
      SELECT 'cli-many', 'sms', '+336100' || lpad(g::text, 5, '0'), '{"body": "x"}', now() + interval '1 day', now() + interval '1 day',
             now() - g * interval '1 millisecond'
        FROM generate_series(1, 1234) g`);
    const expected: string[] = (
      await db.sql(`SELECT id FROM jobs WHERE project_id = 'cli-many' ORDER BY created_at DESC, id DESC`)
    ).map((r) => r.id as string);

    // A reader that takes nothing for a second, then everything: before the fix the command
    // exited with its output still buffered and the reader got the first 65 536 bytes.
    const child = spawn(process.execPath, [cli, 'jobs', '--project', 'cli-many', '--all', '--json'], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 1_000);
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout.length).toBeGreaterThan(65_536);
    const listed = JSON.parse(stdout);
    expect(listed.count).toBe(1234);
    expect(listed.jobs.map((j: { id: string }) => j.id)).toEqual(expected);

    // --limit beyond one page, and the default of 50.
    const limited = JSON.parse(
      (await notifyd(['jobs', '--project', 'cli-many', '--limit', '777', '--json'], env)).stdout,
    );
    expect(limited.jobs.map((j: { id: string }) => j.id)).toEqual(expected.slice(0, 777));
    expect(JSON.parse((await notifyd(['jobs', '--project', 'cli-many', '--json'], env)).stdout).count).toBe(50);
    expect((await notifyd(['jobs', '--all', '--limit', '5'], env)).code).toBe(64);
  });

  it('GET /v1/admin/jobs: next_cursor reads the next page; a forged cursor is a 400 naming cursor', async () => {
    type Page = { count: number; next_cursor: string | null; jobs: { id: string }[] };
    const first = (await fetch(`${server.url}/v1/admin/jobs?project_id=cli-many&limit=500`, {
      headers: { 'X-Api-Key': ADMIN_KEY },
    }).then((r) => r.json())) as Page;
    expect(first.count).toBe(500);
    expect(typeof first.next_cursor).toBe('string');
    const third = (await fetch(
      `${server.url}/v1/admin/jobs?project_id=cli-many&limit=500&cursor=${first.next_cursor}`,
      { headers: { 'X-Api-Key': ADMIN_KEY } },
    ).then((r) => r.json())) as Page;
    expect(third.jobs[0].id).not.toBe(first.jobs[0].id);
    const bad = await fetch(`${server.url}/v1/admin/jobs?cursor=bm9wZQ`, { headers: { 'X-Api-Key': ADMIN_KEY } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/cursor/);
  });

  it('lanes: pause with a duration and reason, list, resume', async () => {
    const paused = await notifyd(['lanes', 'pause', 'sms:log', '--for', '10m', '--reason', 'maintenance'], env);
    expect(paused.code).toBe(0);
    expect(paused.stdout).toMatch(/sms:log paused until/);
    const listed = await notifyd(['lanes'], env);
    expect(listed.stdout).toMatch(/sms:log\s+\S+\s+paused \(operator\).*maintenance/);
    expect((await notifyd(['lanes', 'resume', 'sms:log'], env)).stdout).toMatch(/sms:log is flowing/);
    expect((await notifyd(['lanes', 'pause', 'sms:log', '--for', 'a while'], env)).code).toBe(64);
    expect((await notifyd(['lanes', 'pause', 'fax:x'], env)).code).toBe(3);
  });

  it('digest: Markdown for people, JSON for scripts, exit 2 exactly when a finding is critical', async () => {
    const json = await notifyd(['digest', '--json', '--window', '1h'], as(READONLY_KEY));
    const report = JSON.parse(json.stdout);
    expect(report.window).toBe('1h');
    expect(json.code).toBe(report.summary.critical > 0 ? 2 : 0);
    const markdown = await notifyd(['digest'], env);
    expect(markdown.stdout).toMatch(/^#/m);
    expect((await notifyd(['digest', '--window', '2y'], env)).code).toBe(65);
    const badTarget = await notifyd(['digest', '--to', 'pigeon:loft-7'], env);
    expect(badTarget.code).toBe(65);
    expect(badTarget.stderr).toMatch(/pigeon|slack|telegram/);
  });
});

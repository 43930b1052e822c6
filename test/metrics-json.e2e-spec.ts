import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBuildInfo } from '../src/common/build-info.js';
import { RecordingConnector, RecordingConnectorModule, permanent } from './helpers/recording-connector.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** GET /v1/metrics (notifyd 0.x's JSON figures) and the build in GET /v1/health. */
describe('GET /v1/metrics (JSON)', () => {
  let t: TestApp;
  let provider: RecordingConnector;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { SMS_PROVIDER: 'recording' }, imports: [RecordingConnectorModule] });
    provider = t.notifyd.app.get(RecordingConnector);
    project = await t.createProject('metricsjson');
    await t.http
      .patch(`/v1/admin/projects/${project.id}`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ channels: ['sms', 'in_app'] });
  });
  afterAll(() => t?.close());

  const metrics = async (key = ADMIN_KEY) => {
    const res = await t.http.get('/v1/metrics').set('X-Api-Key', key);
    expect(res.status).toBe(200);
    return res.body as Record<string, number>;
  };

  it('admin and read-only keys read it; a project key is 403, no key 401', async () => {
    expect((await t.http.get('/v1/metrics').set('Authorization', `Bearer ${READONLY_KEY}`)).status).toBe(200);
    expect((await t.http.get('/v1/metrics').set('X-Api-Key', project.key)).status).toBe(403);
    expect((await t.http.get('/v1/metrics')).status).toBe(401);
  });

  it('counts live jobs, the last 24 hours’ outcomes, subscribers, inbox messages and active runs', async () => {
    const api = (path: string, body: object) => t.http.post(path).set('X-Api-Key', project.key).send(body);
    for (const id of ['m1', 'm2'])
      expect((await api('/v1/subscribers', { id, phone: id === 'm1' ? '+33600000001' : '+33600000002' })).status).toBe(
        200,
      );
    provider.script = (m) => (m.recipient.endsWith('09') ? permanent() : { ok: true, providerMessageId: 'x' });
    for (const to of ['+33600000007', '+33600000008', '+33600000009'])
      expect((await api('/v1/send', { channels: ['sms'], to, body: 'hi' })).status).toBe(200);
    expect((await api('/v1/send', { channels: ['in_app'], subscriber_id: 'm1', body: 'hello' })).status).toBe(200);
    await t.worker.drainOnce();
    // One job still waiting, one workflow run waiting on a delay.
    expect(
      (
        await api('/v1/send', {
          channels: ['sms'],
          to: '+33600000010',
          body: 'later',
          scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api('/v1/workflows', {
          id: 'slow',
          name: 'slow',
          trigger_event: 'slow',
          steps: [
            { type: 'delay', duration_secs: 3600 },
            { type: 'send', channel: 'sms', body: 'x' },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await api('/v1/workflows/trigger', { event: 'slow', subscriber_id: 'm1' })).status).toBe(200);

    const m = await metrics(READONLY_KEY);
    expect(m).toEqual({
      jobs_pending: 1,
      jobs_retry: 0,
      jobs_processing: 0,
      jobs_sent_24h: 3,
      jobs_failed_24h: 1,
      subscribers_total: 2,
      inbox_messages_total: 1,
      active_workflow_runs: 1,
      uptime_seconds: expect.any(Number),
    });
    expect(m.uptime_seconds).toBeGreaterThanOrEqual(0);

    // A job that finished 25 hours ago is out of the window.
    await t.db.sql(`UPDATE jobs SET finished_at = now() - interval '25 hours' WHERE status = 'failed'`);
    expect((await metrics()).jobs_failed_24h).toBe(0);
  });
});

describe('build info in GET /v1/health', () => {
  it('health reports the commit and build time npm run build recorded (pretest runs it)', async () => {
    const t = await startTestApp();
    try {
      const health = (await t.http.get('/v1/health')).body;
      const written = JSON.parse(readFileSync(join(root, 'dist', 'build-info.json'), 'utf8'));
      expect(health).toMatchObject({ commit: written.commit, built_at_epoch: written.built_at_epoch });
      expect(health.commit).toMatch(/^[0-9a-f]{40}$/);
    } finally {
      await t.close();
    }
  });

  it('the build script takes git rev-parse HEAD, else NOTIFYD_COMMIT/NOTIFYD_BUILT_AT, else "unknown", and never fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'build-info-'));
    try {
      const run = (script: string, env: Record<string, string>) => {
        const out = join(dir, `${Math.random()}.json`);
        const clean = Object.fromEntries(
          Object.entries(process.env).filter(([k]) => !k.startsWith('NOTIFYD_') && !k.startsWith('GIT_')),
        );
        execFileSync(process.execPath, [script], { env: { ...clean, ...env, BUILD_INFO_OUT: out }, stdio: 'pipe' });
        return JSON.parse(readFileSync(out, 'utf8')) as { commit: string; built_at_epoch: number };
      };
      const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root }).toString().trim();
      const before = Math.floor(Date.now() / 1000);
      const fromGit = run(join(root, 'scripts', 'build-info.mjs'), {});
      expect(fromGit.commit).toBe(head);
      expect(fromGit.built_at_epoch).toBeGreaterThanOrEqual(before);

      // A copy outside any repository, as in the Docker build stage (no .git).
      mkdirSync(join(dir, 'app', 'scripts'), { recursive: true });
      const copy = join(dir, 'app', 'scripts', 'build-info.mjs');
      copyFileSync(join(root, 'scripts', 'build-info.mjs'), copy);
      expect(run(copy, { NOTIFYD_COMMIT: 'ABCDEF1234567', NOTIFYD_BUILT_AT: '2026-12-01T00:00:00Z' })).toEqual({
        commit: 'abcdef1234567',
        built_at_epoch: 1796083200,
      });
      expect(run(copy, { NOTIFYD_BUILT_AT: '1764547200' })).toEqual({ commit: 'unknown', built_at_epoch: 1764547200 });
      expect(run(copy, { NOTIFYD_COMMIT: 'not a sha' }).commit).toBe('unknown');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without a build-info file, notifyd reads the environment, else says unknown and null', () => {
    expect(readBuildInfo('/nonexistent/build-info.json', {})).toEqual({ commit: 'unknown', built_at_epoch: null });
    expect(readBuildInfo(undefined, { NOTIFYD_COMMIT: 'abcdef1', NOTIFYD_BUILT_AT: '1764547200' })).toEqual({
      commit: 'abcdef1',
      built_at_epoch: 1764547200,
    });
  });
});

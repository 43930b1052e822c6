import { randomBytes } from 'node:crypto';
import { PacingService } from '../src/pacing/pacing.service.js';
import { ProjectProvidersService } from '../src/project-providers/project-providers.service.js';
import { ResendFake } from './fakes/resend-fake.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/** Per-project providers: admin API, encryption at rest, the project's jobs on its own account and lane, key rotation. */
describe('per-project providers', () => {
  const resend = new ResendFake('re_project_key_0123456789');
  const k1 = randomBytes(32).toString('base64');
  let baseUrl: string;
  let t: TestApp;
  let own: { id: string; key: string };
  let other: { id: string; key: string };
  const put = (app: TestApp, project: string, channel: string, body: unknown) =>
    app.http
      .put(`/v1/admin/projects/${project}/providers/${channel}`)
      .set('X-Api-Key', ADMIN_KEY)
      .send(body as object);
  const sendEmail = async (project: { key: string }, to: string) => {
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], to, subject: 'Hi', body: 'Hello' });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const job = async (id: string) => (await t.db.sql(`SELECT status, provider, error FROM jobs WHERE id = $1`, [id]))[0];
  /** The worker's cached connectors (`project/channel` keys); private, read here to see what it keeps. */
  const cached = () => [...t.notifyd.app.get(ProjectProvidersService)['built'].keys()];

  beforeAll(async () => {
    baseUrl = await resend.start();
    t = await startTestApp({ env: { EMAIL_PROVIDER: 'log', RESEND_BASE_URL: baseUrl, NOTIFYD_SECRET_KEY: k1 } });
    own = await t.createProject();
    other = await t.createProject();
  });
  afterAll(async () => {
    await t.close();
    await resend.stop();
  });
  beforeEach(() => resend.reset());

  it('stores a project’s own Resend account encrypted, and never shows the key again', async () => {
    const res = await put(t, own.id, 'email', {
      provider: 'resend',
      settings: { api_key: 're_project_key_0123456789' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      project_id: own.id,
      channel: 'email',
      provider: 'resend',
      settings: { api_key: '…6789' },
      key_id: 'k1',
    });
    const [row] = await t.db.sql(`SELECT settings, secrets, key_id FROM project_providers WHERE project_id = $1`, [
      own.id,
    ]);
    expect(JSON.stringify(row)).not.toContain('re_project_key');
    expect(row.secrets).toMatch(/^v1\.k1\./);
    const read = await t.http.get(`/v1/admin/projects/${own.id}/providers/email`).set('X-Api-Key', READONLY_KEY);
    expect(read.status).toBe(200);
    expect(read.body.settings).toEqual({ api_key: '…6789' });
    const list = await t.http.get(`/v1/admin/projects/${own.id}/providers`).set('X-Api-Key', ADMIN_KEY);
    expect(list.body.providers).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain('re_project_key');
    const audit = await t.db.sql(`SELECT metadata FROM audit_log WHERE action = 'project_provider.set'`);
    expect(JSON.stringify(audit)).not.toContain('re_project_key');
  });

  it('sends the project’s jobs through its own account on a lane of its own; other projects keep the instance’s provider', async () => {
    await put(t, own.id, 'email', { provider: 'resend', settings: { api_key: 're_project_key_0123456789' } });
    const mine = await sendEmail(own, 'a@customer.example');
    const theirs = await sendEmail(other, 'b@customer.example');
    await t.worker.drainOnce();
    expect(await job(mine)).toMatchObject({ status: 'sent', provider: 'resend' });
    expect(await job(theirs)).toMatchObject({ status: 'sent', provider: 'log' });
    expect(resend.requests).toHaveLength(1);
    expect(resend.requests[0].headers.authorization).toBe('Bearer re_project_key_0123456789');
    expect(resend.emails.map((e) => e.to[0])).toEqual(['a@customer.example']);

    // A 429 on the project's account pauses the project's lane only.
    resend.script = () => ({
      status: 429,
      name: 'rate_limit_exceeded',
      message: 'slow down',
      headers: { 'retry-after': '30' },
    });
    const held = await sendEmail(own, 'c@customer.example');
    await t.worker.drainOnce();
    expect(await job(held)).toMatchObject({ status: 'pending' });
    const pacing = t.notifyd.app.get(PacingService);
    expect((await pacing.pauseOf({ channel: 'email', provider: 'resend', projectId: own.id }))?.kind).toBe(
      'rate_limited',
    );
    expect(await pacing.pauseOf({ channel: 'email', provider: 'resend' })).toBeUndefined();
    const free = await sendEmail(other, 'd@customer.example');
    await t.worker.drainOnce();
    expect(await job(free)).toMatchObject({ status: 'sent', provider: 'log' });
    await pacing.resume({ channel: 'email', provider: 'resend', projectId: own.id });
  });

  it('refuses settings it cannot use, naming the field, without echoing values', async () => {
    const cases: [string, string, unknown, number, RegExp][] = [
      [
        own.id,
        'email',
        { provider: 'smtp', settings: { host: 'x' } },
        422,
        /provider 'smtp' cannot be configured per project on email; use resend, postmark, ses, sendgrid/,
      ],
      [own.id, 'email', { provider: 'resend', settings: {} }, 422, /resend needs settings\.api_key/],
      [
        own.id,
        'email',
        { provider: 'resend', settings: { api_key: 're_abcdefgh123', base_url: 'http://169.254.169.254' } },
        422,
        /settings\.base_url is not a resend setting; use api_key/,
      ],
      [
        own.id,
        'email',
        {
          provider: 'ses',
          settings: { region: 'eu-west-1', access_key_id: 'AKIDEXAMPLE12345', secret_access_key: 'short' },
        },
        422,
        /settings\.secret_access_key must be an AWS secret access key/,
      ],
      [
        own.id,
        'in_app',
        { provider: 'resend', settings: { api_key: 're_abcdefgh123' } },
        422,
        /channel must be one of/,
      ],
      [
        'no-such-project',
        'email',
        { provider: 'resend', settings: { api_key: 're_abcdefgh123' } },
        404,
        /Project 'no-such-project' was not found/,
      ],
    ];
    for (const [project, channel, body, status, message] of cases) {
      const res = await put(t, project, channel, body);
      expect({ status: res.status, message: res.body.message }).toEqual({
        status,
        message: expect.stringMatching(message),
      });
      expect(JSON.stringify(res.body)).not.toContain('short');
    }
    expect(
      (
        await t.http
          .put(`/v1/admin/projects/${own.id}/providers/email`)
          .set('X-Api-Key', READONLY_KEY)
          .send({ provider: 'resend', settings: { api_key: 're_abcdefgh123' } })
      ).status,
    ).toBe(403);
  });

  it('DELETE returns the project to the instance’s provider, and the worker forgets the connector', async () => {
    await put(t, own.id, 'email', { provider: 'resend', settings: { api_key: 're_project_key_0123456789' } });
    const before = await sendEmail(own, 'd@customer.example');
    await t.worker.drainOnce();
    expect(await job(before)).toMatchObject({ status: 'sent', provider: 'resend' });
    expect(cached()).toContain(`${own.id}/email`);
    resend.reset();
    expect(
      (await t.http.delete(`/v1/admin/projects/${own.id}/providers/email`).set('X-Api-Key', ADMIN_KEY)).body,
    ).toEqual({ success: true });
    expect((await t.http.get(`/v1/admin/projects/${own.id}/providers/email`).set('X-Api-Key', ADMIN_KEY)).status).toBe(
      404,
    );
    const id = await sendEmail(own, 'e@customer.example');
    await t.worker.drainOnce();
    expect(await job(id)).toMatchObject({ status: 'sent', provider: 'log' });
    expect(resend.requests).toHaveLength(0);
    expect(cached()).not.toContain(`${own.id}/email`);
  });

  it('forgets the connectors of a deleted project', async () => {
    const doomed = await t.createProject();
    await put(t, doomed.id, 'email', { provider: 'resend', settings: { api_key: 're_project_key_0123456789' } });
    const id = await sendEmail(doomed, 'g@customer.example');
    await t.worker.drainOnce();
    expect(await job(id)).toMatchObject({ status: 'sent', provider: 'resend' });
    expect(cached()).toContain(`${doomed.id}/email`);
    expect((await t.http.delete(`/v1/admin/projects/${doomed.id}`).set('X-Api-Key', ADMIN_KEY)).status).toBe(200);
    // The projects.changed signal arrives a few ms after the delete commits.
    for (let i = 0; i < 400 && cached().includes(`${doomed.id}/email`); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(cached()).not.toContain(`${doomed.id}/email`);
  });

  it('rotates the encryption key: the old key stays readable while listed, reseal moves every row to the new one', async () => {
    await put(t, own.id, 'email', { provider: 'resend', settings: { api_key: 're_project_key_0123456789' } });
    const k2 = randomBytes(32).toString('hex');
    const rotated = await startTestApp({
      database: t.db,
      env: {
        EMAIL_PROVIDER: 'log',
        RESEND_BASE_URL: baseUrl,
        NOTIFYD_SECRET_KEY: k2,
        NOTIFYD_SECRET_KEY_ID: 'k2',
        NOTIFYD_PREVIOUS_SECRET_KEYS: `k1:${k1}`,
      },
    });
    try {
      const before = await rotated.http.get(`/v1/admin/projects/${own.id}/providers/email`).set('X-Api-Key', ADMIN_KEY);
      expect(before.body).toMatchObject({ key_id: 'k1', settings: { api_key: '…6789' } });
      const reseal = await rotated.http.post('/v1/admin/project-providers/reseal').set('X-Api-Key', ADMIN_KEY);
      expect(reseal.body).toEqual({ resealed: 1, unreadable: [] });
    } finally {
      await rotated.notifyd.close();
    }
    // The old key can now be dropped.
    const only = await startTestApp({
      database: t.db,
      env: { EMAIL_PROVIDER: 'log', RESEND_BASE_URL: baseUrl, NOTIFYD_SECRET_KEY: k2, NOTIFYD_SECRET_KEY_ID: 'k2' },
    });
    try {
      const after = await only.http.get(`/v1/admin/projects/${own.id}/providers/email`).set('X-Api-Key', ADMIN_KEY);
      expect(after.body).toMatchObject({ key_id: 'k2', settings: { api_key: '…6789' } });
    } finally {
      await only.notifyd.close();
    }
    // The instance still holding only k1 can no longer open the row: its jobs are not sent through the instance's account.
    const id = await sendEmail(own, 'f@customer.example');
    await t.worker.drainOnce();
    expect(await job(id)).toMatchObject({
      status: 'retry',
      provider: null,
      error: expect.stringMatching(/own resend credentials cannot be read.*PUT \/v1\/admin\/projects\//),
    });
    // Its last attempt fails it for good, worded as every other exhausted retry.
    await t.db.sql(`UPDATE jobs SET max_attempts = attempts + 1, run_at = now() WHERE id = $1`, [id]);
    await t.worker.drainOnce();
    expect(await job(id)).toMatchObject({
      status: 'failed',
      provider: null,
      error: expect.stringMatching(/own resend credentials cannot be read.*\(gave up after 2 attempts\)$/),
    });
    expect(resend.requests).toHaveLength(0);
  });

  it('reseals every row even when a whole page of rows no configured key opens comes first', async () => {
    // 100 rows (one reseal page) sealed with a key that is gone, ordered before the readable one.
    const lost = Array.from({ length: 100 }, (_, i) => `0lost-${String(i).padStart(3, '0')}`);
    await t.db.sql(`INSERT INTO projects (id, name) SELECT unnest($1::text[]), 'lost'`, [lost]);
    await t.db.sql(
      `INSERT INTO project_providers (project_id, channel, provider, secrets, key_id) SELECT unnest($1::text[]), 'email', 'resend', 'v1.k0.gone', 'k0'`,
      [lost],
    );
    await put(t, own.id, 'email', { provider: 'resend', settings: { api_key: 're_project_key_0123456789' } });
    const k2 = randomBytes(32).toString('hex');
    const rotated = await startTestApp({
      database: t.db,
      env: {
        EMAIL_PROVIDER: 'log',
        RESEND_BASE_URL: baseUrl,
        NOTIFYD_SECRET_KEY: k2,
        NOTIFYD_SECRET_KEY_ID: 'k2',
        NOTIFYD_PREVIOUS_SECRET_KEYS: `k1:${k1}`,
      },
    });
    try {
      const reseal = await rotated.http.post('/v1/admin/project-providers/reseal').set('X-Api-Key', ADMIN_KEY);
      expect(reseal.body.resealed).toBe(1);
      expect(reseal.body.unreadable).toEqual(lost.map((id) => `${id}/email`));
      expect((await t.db.sql(`SELECT key_id FROM project_providers WHERE project_id = $1`, [own.id]))[0].key_id).toBe(
        'k2',
      );
    } finally {
      await rotated.notifyd.close();
      await t.db.sql(`DELETE FROM projects WHERE id = ANY($1::text[])`, [lost]);
      // Back to k1 for the tests after this one.
      await put(t, own.id, 'email', { provider: 'resend', settings: { api_key: 're_project_key_0123456789' } });
    }
  });

  it('refuses to store credentials without NOTIFYD_SECRET_KEY', async () => {
    const keyless = await startTestApp({ database: t.db, env: { EMAIL_PROVIDER: 'log' } });
    try {
      const res = await put(keyless, own.id, 'email', { provider: 'resend', settings: { api_key: 're_abcdefgh123' } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        error: 'secret_key_not_configured',
        message: expect.stringContaining('NOTIFYD_SECRET_KEY'),
      });
    } finally {
      await keyless.notifyd.close();
    }
  });
});

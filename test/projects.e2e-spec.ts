import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';
import { withinOneWindow } from './helpers/rate-window.js';

describe('projects and keys (admin API)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const admin = () => ({ 'X-Api-Key': ADMIN_KEY });

  it('creates a project, shows its key once and stores only its SHA-256', async () => {
    const res = await t.http
      .post('/v1/admin/projects')
      .set(admin())
      .send({ id: 'acme', name: 'Acme', from_email: 'hi@acme.example' });
    expect(res.status).toBe(201);
    const key: string = res.body.project.api_key;
    expect(key).toMatch(/^sk_acme_[0-9a-f]{32}$/);
    expect(res.body.warning).toMatch(/cannot be shown again/);
    const [row] = await t.db.sql(`SELECT * FROM projects WHERE id = 'acme'`);
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.api_key_hash).toMatch(/^[0-9a-f]{64}$/);

    const list = await t.http.get('/v1/admin/projects').set(admin());
    expect(list.status).toBe(200);
    const listed = list.body.projects.find((p: { id: string }) => p.id === 'acme');
    expect(listed).toMatchObject({
      name: 'Acme',
      from_email: 'hi@acme.example',
      api_key_hint: `sk_acme_…${key.slice(-4)}`,
    });
    expect(JSON.stringify(list.body)).not.toContain(key);
  });

  it('answers 409 for an id that exists, with the way out', async () => {
    const res = await t.http.post('/v1/admin/projects').set(admin()).send({ id: 'acme', name: 'Again' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'project_exists' });
    expect(res.body.message).toMatch(/rotate-key/);
  });

  it('patches fields, clears with null, keeps keys', async () => {
    const res = await t.http
      .patch('/v1/admin/projects/acme')
      .set(admin())
      .send({ name: 'Acme Inc', from_email: null, settings: { a: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.project).toMatchObject({ name: 'Acme Inc', from_email: null, settings: { a: 1 } });
    const bad = await t.http
      .patch('/v1/admin/projects/acme')
      .set(admin())
      .send({ channels: ['fax'] });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/channels/);
    expect((await t.http.patch('/v1/admin/projects/nope').set(admin()).send({ name: 'x' })).status).toBe(404);
  });

  it('rotation keeps the old key valid as secondary until it is revoked', async () => {
    const { key: oldKey } = await t.createProject('rotor');
    const rotated = await t.http.post('/v1/admin/projects/rotor/rotate-key').set(admin());
    expect(rotated.status).toBe(200);
    const newKey: string = rotated.body.new_api_key;
    expect(newKey).not.toBe(oldKey);
    const probe = (key: string) => t.http.get('/v1/subscribers').set('X-Api-Key', key);
    expect((await probe(oldKey)).status).toBe(200);
    expect((await probe(newKey)).status).toBe(200);
    expect((await t.http.post('/v1/admin/projects/rotor/revoke-secondary').set(admin())).status).toBe(200);
    expect((await probe(oldKey)).status).toBe(401);
    expect((await probe(newKey)).status).toBe(200);
    // Bearer works as well as X-Api-Key.
    expect((await t.http.get('/v1/subscribers').set('Authorization', `Bearer ${newKey}`)).status).toBe(200);
  });

  it('deleting a project deletes its jobs and its key stops working', async () => {
    const { key } = await t.createProject('doomed');
    await t.http
      .post('/v1/send')
      .set('X-Api-Key', key)
      .send({ channel: 'email', to: 'u1@example.com', body: 'x' })
      .expect(200);
    expect((await t.http.delete('/v1/admin/projects/doomed').set(admin())).status).toBe(200);
    expect(await t.db.sql(`SELECT 1 FROM jobs WHERE project_id = 'doomed'`)).toHaveLength(0);
    expect((await t.http.get('/v1/subscribers').set('X-Api-Key', key)).status).toBe(401);
    expect((await t.http.delete('/v1/admin/projects/doomed').set(admin())).status).toBe(404);
  });

  it('the read-only key reads but cannot change anything', async () => {
    expect((await t.http.get('/v1/admin/projects').set('X-Api-Key', READONLY_KEY)).status).toBe(200);
    const res = await t.http.post('/v1/admin/projects').set('X-Api-Key', READONLY_KEY).send({ id: 'ro', name: 'RO' });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/needs the admin key/);
    expect((await t.http.delete('/v1/admin/projects/acme').set('X-Api-Key', READONLY_KEY)).status).toBe(403);
  });

  it('refuses missing, wrong and project keys on admin routes, and audits changes', async () => {
    expect((await t.http.get('/v1/admin/projects')).status).toBe(401);
    expect((await t.http.get('/v1/admin/projects').set('X-Api-Key', 'wrong-key-wrong-key')).status).toBe(401);
    const { key } = await t.createProject();
    expect((await t.http.get('/v1/admin/projects').set('X-Api-Key', key)).status).toBe(403);
    const actions = (await t.db.sql(`SELECT action FROM audit_log WHERE project_id = 'rotor' ORDER BY id`)).map(
      (r) => r.action,
    );
    expect(actions).toEqual(['project.created', 'project.key_rotated', 'project.secondary_key_revoked']);
  });
});

describe('cached project keys (AUTH_KEY_CACHE_MS): a revoked key stops working within a bounded time', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const admin = { 'X-Api-Key': ADMIN_KEY };
  const probe = (app: TestApp, key: string) => app.http.get('/v1/subscribers').set('X-Api-Key', key);
  const revokeOld = async (id: string) => {
    await t.http.post(`/v1/admin/projects/${id}/rotate-key`).set(admin).expect(200);
    await t.http.post(`/v1/admin/projects/${id}/revoke-secondary`).set(admin).expect(200);
  };
  const until401 = async (app: TestApp, key: string, limitMs: number) => {
    const deadline = Date.now() + limitMs;
    while ((await probe(app, key)).status !== 401) {
      if (Date.now() > deadline) throw new Error(`the revoked key still worked after ${limitMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('another process drops its cached key on the revocation signal, long before its TTL', async () => {
    const replica = await startTestApp({ database: t.db, env: { AUTH_KEY_CACHE_MS: '60000' } });
    try {
      const { id, key } = await t.createProject();
      expect((await probe(replica, key)).status).toBe(200); // cached there for up to 60 s
      await revokeOld(id);
      expect((await probe(t, key)).status).toBe(401); // the revoking process: at once
      await until401(replica, key, 20_000);
    } finally {
      await replica.close();
    }
  });

  it('without signals, the TTL is the bound', async () => {
    const replica = await startTestApp({
      database: t.db,
      env: { AUTH_KEY_CACHE_MS: '1000', SIGNALS_ENABLED: 'false' },
    });
    try {
      const { id, key } = await t.createProject();
      expect((await probe(replica, key)).status).toBe(200);
      await revokeOld(id);
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await probe(replica, key)).status).toBe(401);
    } finally {
      await replica.close();
    }
  });

  it('a deleted project and a changed rate limit reach other processes too; 0 turns the cache off', async () => {
    const replica = await startTestApp({ database: t.db, env: { AUTH_KEY_CACHE_MS: '60000' } });
    const uncached = await startTestApp({ database: t.db, env: { AUTH_KEY_CACHE_MS: '0', SIGNALS_ENABLED: 'false' } });
    try {
      const limited = await t.createProject();
      expect((await probe(replica, limited.key)).status).toBe(200);
      await t.http.patch(`/v1/admin/projects/${limited.id}`).set(admin).send({ rate_limit_per_min: 1 }).expect(200);
      const deadline = Date.now() + 20_000;
      let status = 200;
      while (status !== 429 && Date.now() < deadline) status = (await probe(replica, limited.key)).status;
      expect(status).toBe(429);

      const doomed = await t.createProject();
      expect((await probe(replica, doomed.key)).status).toBe(200);
      expect((await probe(uncached, doomed.key)).status).toBe(200);
      await t.http.delete(`/v1/admin/projects/${doomed.id}`).set(admin).expect(200);
      expect((await probe(uncached, doomed.key)).status).toBe(401);
      await until401(replica, doomed.key, 20_000);
    } finally {
      await uncached.close();
      await replica.close();
    }
  });
});

describe('admin routes without ADMIN_API_KEY', () => {
  it('are disabled with a message that says what to set', async () => {
    const t = await startTestApp({ env: { ADMIN_API_KEY: '' } });
    try {
      const res = await t.http.get('/v1/admin/projects').set('X-Api-Key', 'anything-at-all-1234');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'admin_disabled' });
      expect(res.body.message).toMatch(/ADMIN_API_KEY/);
    } finally {
      await t.close();
    }
  });
});

describe('per-project API rate limit', () => {
  it('answers 429 with Retry-After past rate_limit_per_min, for that project only', async () => {
    const t = await startTestApp();
    try {
      const limited = await t.createProject('tiny');
      const other = await t.createProject('roomy');
      await t.http
        .patch('/v1/admin/projects/tiny')
        .set('X-Api-Key', ADMIN_KEY)
        .send({ rate_limit_per_min: 3 })
        .expect(200);
      await withinOneWindow();
      const statuses = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await t.http.get('/v1/subscribers').set('X-Api-Key', limited.key)).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await t.http.get('/v1/subscribers').set('X-Api-Key', limited.key);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(/rate_limit_per_min/);
      expect((await t.http.get('/v1/subscribers').set('X-Api-Key', other.key)).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

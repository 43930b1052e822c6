import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The console's sign-in (issue 24): an operator key exchanged for an HttpOnly, SameSite=Strict
 * session cookie that stands for that key on the admin API, with a CSRF token on every change,
 * a server-side sign-out, and a strict Content-Security-Policy on the console's pages.
 */
describe('console sessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const signIn = async (key: string, headers: Record<string, string> = {}) => {
    const res = await t.http.post('/console/session').set(headers).send({ key });
    expect(res.status).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    const cookie = setCookie.split(';')[0];
    return { cookie, setCookie, csrf: res.body.csrf_token as string, body: res.body };
  };

  it('exchanges the admin key for an HttpOnly, SameSite=Strict cookie that is Secure only behind HTTPS', async () => {
    const plain = await signIn(ADMIN_KEY);
    expect(plain.body.role).toBe('admin');
    expect(plain.setCookie).toMatch(
      /^notifyd_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
    );
    expect(plain.setCookie).not.toContain('Secure');
    expect(JSON.stringify(plain.body)).not.toContain(ADMIN_KEY);

    const proxied = await signIn(ADMIN_KEY, { 'X-Forwarded-Proto': 'https' });
    expect(proxied.setCookie).toMatch(/; Secure$/);

    // Only a hash of the cookie's token is stored.
    const token = plain.cookie.split('=')[1];
    const rows = await t.db.sql(`SELECT token_hash, role FROM console_sessions`);
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
    expect(rows).toHaveLength(2);
  });

  it('refuses a project key, an unknown key and a missing key', async () => {
    const project = await t.createProject();
    const asProject = await t.http.post('/console/session').send({ key: project.key });
    expect(asProject.status).toBe(403);
    expect(asProject.headers['set-cookie']).toBeUndefined();
    const unknown = await t.http.post('/console/session').send({ key: 'not-a-key' });
    expect(unknown.status).toBe(401);
    const missing = await t.http.post('/console/session').send({});
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(missing.status).toBeLessThan(500);
    expect(JSON.stringify(missing.body)).toContain('key');
  });

  it('authenticates admin API calls as its key; a change needs the CSRF token', async () => {
    const admin = await signIn(ADMIN_KEY);
    const lanes = await t.http.get('/v1/admin/lanes').set('Cookie', admin.cookie);
    expect(lanes.status).toBe(200);

    const lane = 'email:log';
    const noToken = await t.http
      .post(`/v1/admin/lanes/${lane}/pause`)
      .set('Cookie', admin.cookie)
      .send({ duration_secs: 60 });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error).toBe('csrf_token_invalid');
    const wrongToken = await t.http
      .post(`/v1/admin/lanes/${lane}/pause`)
      .set('Cookie', admin.cookie)
      .set('X-CSRF-Token', 'x'.repeat(43))
      .send({ duration_secs: 60 });
    expect(wrongToken.status).toBe(403);
    expect((await t.http.get(`/v1/admin/lanes/${lane}`).set('X-Api-Key', ADMIN_KEY)).body.paused).toBe(false);

    const paused = await t.http
      .post(`/v1/admin/lanes/${lane}/pause`)
      .set('Cookie', admin.cookie)
      .set('X-CSRF-Token', admin.csrf)
      .send({ duration_secs: 60, reason: 'console test' });
    expect(paused.status).toBe(200);
    expect(paused.body.paused).toBe(true);
    // The audit log names the operator role, as it would for the key.
    const [audit] = await t.db.sql(`SELECT actor FROM audit_log WHERE action = 'lane.paused' ORDER BY id DESC LIMIT 1`);
    expect(audit.actor).toBe('admin');
    const resumed = await t.http
      .post(`/v1/admin/lanes/${lane}/resume`)
      .set('Cookie', admin.cookie)
      .set('X-CSRF-Token', admin.csrf);
    expect(resumed.status).toBe(200);

    // Project routes do not take an operator session, as they do not take an operator key.
    expect((await t.http.get('/v1/subscribers').set('Cookie', admin.cookie)).status).toBe(401);
  });

  it('the read-only session reads and is refused every change, as its key is', async () => {
    const reader = await signIn(READONLY_KEY);
    expect(reader.body.role).toBe('readonly');
    expect((await t.http.get('/v1/admin/digest').set('Cookie', reader.cookie)).status).toBe(200);
    const pause = await t.http
      .post('/v1/admin/lanes/email:log/pause')
      .set('Cookie', reader.cookie)
      .set('X-CSRF-Token', reader.csrf)
      .send({});
    expect(pause.status).toBe(403);
    expect(pause.body.message).toMatch(/Read-only/);
  });

  it('sign-out ends the session on the server: the old cookie is refused', async () => {
    const admin = await signIn(ADMIN_KEY);
    expect((await t.http.get('/console/session').set('Cookie', admin.cookie)).body.csrf_token).toBe(admin.csrf);
    // Signing out is a change too: without the token it is refused and the session lives on.
    expect((await t.http.delete('/console/session').set('Cookie', admin.cookie)).status).toBe(403);
    const out = await t.http.delete('/console/session').set('Cookie', admin.cookie).set('X-CSRF-Token', admin.csrf);
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^notifyd_console=; .*Max-Age=0/);

    const replay = await t.http.get('/v1/admin/lanes').set('Cookie', admin.cookie);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/session has ended/);
    expect((await t.http.get('/console/session').set('Cookie', admin.cookie)).status).toBe(401);
  });

  it('a session outlives neither its key: another notifyd with a new admin key refuses the cookie', async () => {
    const admin = await signIn(ADMIN_KEY);
    const other = await startTestApp({ database: t.db, env: { ADMIN_API_KEY: 'another-admin-key-0123456789abcdef' } });
    try {
      expect((await other.http.get('/v1/admin/lanes').set('Cookie', admin.cookie)).status).toBe(401);
      expect((await t.http.get('/v1/admin/lanes').set('Cookie', admin.cookie)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('serves the console under a strict Content-Security-Policy with no inline script', async () => {
    const page = await t.http.get('/console');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const script = await t.http.get('/console/assets/console.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.headers['content-security-policy']).toBe(csp);
    expect((await t.http.get('/console/assets/nope.js')).status).toBe(404);
    expect((await t.http.get('/console/assets/..%2Fpackage.json')).status).toBe(404);
  });
});

import { randomBytes } from 'node:crypto';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const CHANNELS = ['email', 'sms', 'whatsapp', 'push', 'in_app', 'telegram', 'slack', 'discord'];

/**
 * GET /v1/channels (notifyd's channel report): per channel, listed by the project (`allowed`)
 * and delivered by this instance (`configured`), with the provider, the fallback and whether
 * the project uses its own account. Provider names only, never a setting or a secret.
 */
describe('GET /v1/channels', () => {
  let t: TestApp;
  const ownKey = 're_own_account_key_0123456789';

  beforeAll(async () => {
    // No message is sent here: the provider base URLs are never contacted.
    t = await startTestApp({
      env: {
        EMAIL_PROVIDER: 'log',
        EMAIL_FALLBACK_PROVIDER: 'postmark',
        POSTMARK_SERVER_TOKEN: 'pm_instance_token_0123456789',
        POSTMARK_BASE_URL: 'http://127.0.0.1:9',
        RESEND_BASE_URL: 'http://127.0.0.1:9',
        SMS_PROVIDER: 'log',
        NOTIFYD_SECRET_KEY: randomBytes(32).toString('base64'),
      },
    });
  });
  afterAll(() => t.close());

  const report = async (key: string) => {
    const res = await t.http.get('/v1/channels').set('X-Api-Key', key);
    expect(res.status).toBe(200);
    return res.body.channels as Record<string, Record<string, unknown>>;
  };

  it('reports every channel: listed by the project, delivered by the instance, with provider and fallback', async () => {
    const project = await t.createProject();
    const patched = await t.http
      .patch(`/v1/admin/projects/${project.id}`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ channels: ['email', 'whatsapp'] });
    expect(patched.status).toBe(200);
    const channels = await report(project.key);
    expect(Object.keys(channels).sort()).toEqual([...CHANNELS].sort());
    expect(channels.email).toEqual({
      allowed: true,
      configured: true,
      provider: 'log',
      own_account: false,
      fallback_provider: 'postmark',
      reason: null,
    });
    expect(channels.sms).toEqual({
      allowed: false,
      configured: true,
      provider: 'log',
      own_account: false,
      fallback_provider: null,
      reason: null,
    });
    expect(channels.in_app).toMatchObject({ allowed: false, configured: true, provider: 'inbox' });
    // Listed but not deliverable here: the reason names the variable to set.
    expect(channels.whatsapp).toMatchObject({
      allowed: true,
      configured: false,
      provider: null,
      fallback_provider: null,
    });
    expect(channels.whatsapp.reason).toMatch(/WHATSAPP_PROVIDER/);
    for (const chat of ['telegram', 'slack', 'discord'])
      expect([chat, channels[chat].configured]).toEqual([chat, false]);
  });

  it('agrees with /v1/send: a configured channel is queued, one that is not is refused', async () => {
    const project = await t.createProject();
    const channels = await report(project.key);
    const send = (channel: string) =>
      t.http
        .post('/v1/send')
        .set('X-Api-Key', project.key)
        .send({ channels: [channel], to: channel === 'email' ? 'a@example.com' : '+33612345678', body: 'hi' });
    expect(channels.email.configured).toBe(true);
    expect((await send('email')).status).toBe(200);
    expect(channels.whatsapp.configured).toBe(false);
    const refused = await send('whatsapp');
    expect([refused.status, refused.body.error]).toEqual([422, 'channel_not_configured']);
  });

  it('shows a project’s own account by provider name only: no fallback, no setting, no secret', async () => {
    const project = await t.createProject();
    const put = await t.http
      .put(`/v1/admin/projects/${project.id}/providers/email`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ provider: 'resend', settings: { api_key: ownKey } });
    expect(put.status).toBe(200);
    const res = await t.http.get('/v1/channels').set('X-Api-Key', project.key);
    expect(res.body.channels.email).toEqual({
      allowed: true,
      configured: true,
      provider: 'resend',
      own_account: true,
      fallback_provider: null,
      reason: null,
    });
    expect(res.text).not.toContain(ownKey.slice(-8));
    expect(res.text).not.toContain('pm_instance_token');
    // Another project keeps the instance's provider.
    const other = await t.createProject();
    expect((await report(other.key)).email).toMatchObject({
      provider: 'log',
      own_account: false,
      fallback_provider: 'postmark',
    });
  });

  it('needs a project key', async () => {
    const res = await t.http.get('/v1/channels');
    expect([res.status, res.body.error]).toEqual([401, 'unauthorized']);
    expect((await t.http.get('/v1/channels').set('X-Api-Key', ADMIN_KEY)).status).toBe(401);
  });
});

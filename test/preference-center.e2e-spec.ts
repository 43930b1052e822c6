import { linkKeyRing } from '../src/governance/link-keys.js';
import { signPreferenceToken } from '../src/governance/preference-center/preference-token.js';
import { unsubscribeUrl } from '../src/common/unsubscribe/unsubscribe-url.js';
import { RecordingConnector, RecordingConnectorModule } from './helpers/recording-connector.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const JWT_SECRET = 'test-jwt-secret-0123456789abcdef';
/** The key the app signs preference links with (JWT_SECRET-derived, id `j`), for crafting expired links. */
const key = () => {
  const ring = linkKeyRing({
    auth: { jwtSecret: JWT_SECRET, jwtPreviousSecrets: [] },
    unsubscribe: { secret: undefined, keyId: 'k', previousKeys: [] },
  } as never);
  return { id: ring.current.id, secret: ring.current.preferences };
};

describe('subscriber preference center', () => {
  let t: TestApp;
  let sms: RecordingConnector;
  let project: { id: string; key: string };
  let other: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: { PUBLIC_URL: 'https://notify.acme.example', SMS_PROVIDER: 'recording', OUTBOUND_ALLOW_LOOPBACK: 'true' },
      imports: [RecordingConnectorModule],
    });
    sms = t.notifyd.app.get(RecordingConnector);
    project = await t.createProject();
    other = await t.createProject();
    const settings = {
      preference_topics: [
        { id: 'tips', label: 'Tips and tricks' },
        { id: 'security', label: 'Security alerts', transactional: true },
      ],
    };
    await t.http
      .patch(`/v1/admin/projects/${project.id}`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ channels: ['email', 'sms', 'in_app'], settings })
      .expect(200);
    for (const s of [
      { id: 'ann', phone: '+33611111111', email: 'ann@example.com' },
      { id: 'bob', phone: '+33622222222', locale: 'de-AT' },
    ]) {
      await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send(s).expect(200);
    }
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    sms.reset();
    await t.db.sql(`DELETE FROM subscriber_preferences`);
    await t.db.sql(`DELETE FROM jobs`);
  });

  const stored = () =>
    t.db.sql(
      `SELECT subscriber_id, channel, scope_kind, scope, enabled FROM subscriber_preferences WHERE project_id = $1 ORDER BY 1, 2, 4`,
      [project.id],
    );
  const send = (body: object) =>
    t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channel: 'sms', subscriber_id: 'ann', ...body });
  /** A page link as a message carries it: sent through the worker, read from what the provider got. */
  const linkFromMessage = async (subscriberId = 'ann') => {
    const res = await send({
      subscriber_id: subscriberId,
      topic: 'tips',
      body: 'Tips inside. Choose what you get: {{ preferences_url }}',
    });
    expect(res.body.job_ids).toHaveLength(1);
    await t.worker.drainOnce();
    const body = sms.messages.at(-1)?.body ?? '';
    const url = body.match(/https:\/\/notify\.acme\.example(\/p\/p1\.j\.[\w.-]+)$/);
    expect([body, url]).toEqual([body, expect.anything()]);
    return url![1];
  };
  const form = (html: string) => ({
    v: html.match(/name="v" value="([^"]+)"/)![1],
    boxes: [...html.matchAll(/<input type="checkbox" name="on" value="([^"]+)"[^>]*>/g)].map((m) => ({
      value: m[1],
      checked: / checked/.test(m[0]),
      disabled: / disabled/.test(m[0]),
    })),
  });
  const post = (path: string, fields: [string, string][]) =>
    t.http
      .post(path)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(new URLSearchParams(fields).toString());

  it('a rendered message carries a working preferences_url, whose GET shows the toggles and changes nothing', async () => {
    const path = await linkFromMessage();
    for (let i = 0; i < 2; i++) {
      const page = await t.http.get(path);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toMatch(
        /^default-src 'none'; style-src 'sha256-[\w+/=]+'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'$/,
      );
      expect(page.text).not.toMatch(/<script|https?:\/\/(?!notify\.acme)/);
      expect(page.text).toContain('<html lang="en">');
      expect(form(page.text).boxes).toEqual([
        { value: 'email tips', checked: true, disabled: false },
        { value: 'sms tips', checked: true, disabled: false },
        { value: 'in_app tips', checked: true, disabled: false },
        { value: 'email security', checked: true, disabled: true },
        { value: 'sms security', checked: true, disabled: true },
        { value: 'in_app security', checked: true, disabled: true },
        { value: 'email marketing', checked: true, disabled: false },
        { value: 'sms marketing', checked: true, disabled: false },
        { value: 'in_app marketing', checked: true, disabled: false },
      ]);
      expect(page.text).toContain('Security alerts<small>always sent</small>');
      // The form posts back to the link itself, relative to /p/.
      expect(page.text).toContain(`<form method="post" action="${path.slice('/p/'.length)}">`);
    }
    expect(await stored()).toEqual([]);
  });

  it('POST switching a topic off stores it, and the next send on that topic to that subscriber is skipped; transactional cannot be switched', async () => {
    const path = await linkFromMessage();
    const { v, boxes } = form((await t.http.get(path)).text);
    // Everything left on but SMS tips; the disabled security boxes are not sent, as a browser does.
    const fields: [string, string][] = [
      ['v', v],
      ...boxes.filter((b) => !b.disabled && b.value !== 'sms tips').map((b): [string, string] => ['on', b.value]),
    ];
    const saved = await post(path, fields);
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Your preferences are saved.');
    expect(form(saved.text).boxes.find((b) => b.value === 'sms tips')).toEqual({
      value: 'sms tips',
      checked: false,
      disabled: false,
    });
    expect(await stored()).toEqual([
      { subscriber_id: 'ann', channel: 'sms', scope_kind: 'topic', scope: 'tips', enabled: false },
    ]);
    const audit = await t.db.sql(
      `SELECT actor, action, resource, metadata FROM audit_log WHERE project_id = $1 AND action = 'preference.updated'`,
      [project.id],
    );
    expect(audit).toEqual([
      {
        actor: 'preference_center',
        action: 'preference.updated',
        resource: 'ann',
        metadata: { changes: [{ channel: 'sms', topic: 'tips', enabled: false }] },
      },
    ]);

    const refused = await send({ topic: 'tips', body: 'another tip' });
    expect(refused.body.job_ids).toEqual([]);
    expect(refused.body.skipped).toEqual([
      expect.objectContaining({ channel: 'sms', reason: "subscriber opted out of topic 'tips' on sms" }),
    ]);
    // Other topics, and the security topic the page cannot switch, still go.
    expect((await send({ topic: 'security', body: 'new sign-in' })).body.job_ids).toHaveLength(1);

    // The same form again changes nothing more; switching it back on writes the opt-in.
    await post(path, fields).expect(200);
    expect(await stored()).toHaveLength(1);
    await post(path, [...fields, ['on', 'sms tips']]).expect(200);
    expect(await stored()).toEqual([
      { subscriber_id: 'ann', channel: 'sms', scope_kind: 'topic', scope: 'tips', enabled: true },
    ]);
  });

  it('a form drawn for another grid, or a bare POST, changes nothing (409, the page again)', async () => {
    const path = await linkFromMessage();
    for (const fields of [[], [['v', 'stale']]] as [string, string][][]) {
      const res = await post(path, fields);
      expect(res.status).toBe(409);
      expect(res.text).toContain('This page has changed since you opened it.');
    }
    expect(await stored()).toEqual([]);
  });

  it('a form body over 64 KiB is a 413 before the token is even read (the page is public)', async () => {
    const claim = { projectId: project.id, subscriberId: 'ann', expiresAt: Math.floor(Date.now() / 1000) + 3600 };
    const res = await t.http
      .post(`/p/${signPreferenceToken(claim, key())}`)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(`v=${'x'.repeat(70 * 1024)}`);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      error: 'payload_too_large',
      message: 'The body is larger than 65536 bytes, the most this route accepts.',
    });
    expect(await stored()).toEqual([]);
  });

  it('speaks the subscriber’s language (de-AT → de)', async () => {
    const page = await t.http.get(await linkFromMessage('bob'));
    expect(page.text).toContain('<html lang="de">');
    expect(page.text).toContain('Benachrichtigungseinstellungen');
    // bob has no email address: no email column.
    expect(form(page.text).boxes.map((b) => b.value)).toEqual([
      'sms tips',
      'in_app tips',
      'sms security',
      'in_app security',
      'sms marketing',
      'in_app marketing',
    ]);
  });

  it('refuses forged, expired, other-project and unsubscribe tokens with a 404 page, GET and POST', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claim = { projectId: project.id, subscriberId: 'ann', expiresAt: now + 3600 };
    expect((await t.http.get(`/p/${signPreferenceToken(claim, key())}`)).status).toBe(200);
    const [v, kid, , sig] = signPreferenceToken(claim, key()).split('.');
    const bad = [
      signPreferenceToken(claim, { id: 'j', secret: 'another-instance-secret-0123' }),
      signPreferenceToken({ ...claim, expiresAt: now - 1 }, key()),
      // Another project's link names its project: it never opens this one's subscriber.
      signPreferenceToken({ ...claim, projectId: other.id }, key()),
      `${v}.${kid}.${Buffer.from(JSON.stringify({ p: project.id, s: 'bob', e: now + 3600 })).toString('base64url')}.${sig}`,
      unsubscribeUrl({ projectId: project.id, channel: 'email', recipient: 'ann@example.com' })!.split('/u/')[1],
      'not-a-token',
    ];
    for (const token of bad) {
      const get = await t.http.get(`/p/${encodeURIComponent(token)}`);
      expect([token, get.status]).toEqual([token, 404]);
      expect(get.text).toContain('This preferences link is not valid or has expired.');
      expect((await post(`/p/${encodeURIComponent(token)}`, [['v', 'x']])).status).toBe(404);
    }
    // Nor does a preference link pass for an unsubscribe link.
    expect((await t.http.get(`/u/${signPreferenceToken(claim, key())}`)).status).toBe(404);
    expect(await stored()).toEqual([]);
  });

  describe('subscriber-token API', () => {
    const tokenOf = async (id: string, p = project) =>
      (await t.http.post('/v1/auth/subscriber-token').set('X-Api-Key', p.key).send({ subscriber_id: id }).expect(200))
        .body.token as string;

    it('reads and writes the same stored rows as the project-key routes, its own subscriber only', async () => {
      const token = await tokenOf('ann');
      const got = await t.http.get('/v1/inbox/ann/preferences').set('Authorization', `Bearer ${token}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        subscriber_id: 'ann',
        channels: ['email', 'sms', 'in_app'],
        topics: [
          { id: 'tips', label: 'Tips and tricks', transactional: false },
          { id: 'security', label: 'Security alerts', transactional: true },
          { id: 'marketing', label: null, transactional: false },
        ],
      });
      expect(got.body.preferences).toContainEqual({
        channel: 'email',
        topic: 'security',
        enabled: true,
        switchable: false,
      });
      expect(got.body.page_url).toMatch(/^https:\/\/notify\.acme\.example\/p\/p1\.j\./);
      expect((await t.http.get(new URL(got.body.page_url).pathname)).status).toBe(200);
      expect(await stored()).toEqual([]);

      const put = await t.http
        .put('/v1/inbox/ann/preferences')
        .set('Authorization', `Bearer ${token}`)
        .send({ preferences: [{ channel: 'email', topic: 'Marketing', enabled: false }] });
      expect(put.status).toBe(200);
      expect(put.body.preferences).toContainEqual({
        channel: 'email',
        topic: 'marketing',
        enabled: false,
        switchable: true,
      });
      const viaProject = await t.http.get('/v1/subscribers/ann/preferences').set('X-Api-Key', project.key);
      expect(viaProject.body.preferences).toEqual([
        expect.objectContaining({ channel: 'email', topic: 'marketing', enabled: false }),
      ]);
      // A row written by the project shows through the subscriber's view.
      await t.http
        .put('/v1/subscribers/ann/preferences')
        .set('X-Api-Key', project.key)
        .send({ preferences: [{ channel: 'sms', enabled: false }] })
        .expect(200);
      const after = await t.http.get('/v1/inbox/ann/preferences').set('Authorization', `Bearer ${token}`);
      expect(
        after.body.preferences
          .filter((p: { channel: string }) => p.channel === 'sms')
          .map((p: { enabled: boolean }) => p.enabled),
      ).toEqual([false, false, false]);

      expect((await t.http.get('/v1/inbox/bob/preferences').set('Authorization', `Bearer ${token}`)).status).toBe(403);
      expect(
        (
          await t.http
            .put('/v1/inbox/bob/preferences')
            .set('Authorization', `Bearer ${token}`)
            .send({ preferences: [{ channel: 'sms', topic: 'tips', enabled: false }] })
        ).status,
      ).toBe(403);
      // Another project's token for a subscriber of the same id opens that project's subscriber only.
      await t.http
        .post('/v1/subscribers')
        .set('X-Api-Key', other.key)
        .send({ id: 'ann', email: 'ann@other.example' })
        .expect(200);
      const foreign = await t.http
        .get('/v1/inbox/ann/preferences')
        .set('Authorization', `Bearer ${await tokenOf('ann', other)}`);
      expect(foreign.body.topics.map((x: { id: string }) => x.id)).toEqual(['marketing']);
      expect(foreign.body.preferences.every((p: { enabled: boolean }) => p.enabled)).toBe(true);
    });

    it('validates: 422 naming the field, transactional refused, nothing written', async () => {
      const auth = `Bearer ${await tokenOf('ann')}`;
      const put = (preferences: unknown) =>
        t.http.put('/v1/inbox/ann/preferences').set('Authorization', auth).send({ preferences });
      const cases: [unknown, number, RegExp][] = [
        [
          [{ channel: 'email', topic: 'security', enabled: false }],
          422,
          /preferences\[0\]\.topic "security" is transactional/,
        ],
        [
          [
            { channel: 'email', topic: 'tips', enabled: true },
            { channel: 'email', topic: 'unknown', enabled: false },
          ],
          422,
          /preferences\[1\]\.topic "unknown" is not one of this project's topics: tips, security, marketing/,
        ],
        [
          [{ channel: 'whatsapp', topic: 'tips', enabled: false }],
          422,
          /preferences\[0\]\.channel "whatsapp" is not one of this subscriber's channels: email, sms, in_app/,
        ],
        [[{ channel: 'fax', topic: 'tips', enabled: false }], 422, /channel must be one of/],
        [[{ channel: 'sms', topic: 'Not a topic!', enabled: false }], 422, /topic must be 1–64 characters/],
        [[{ channel: 'sms', topic: 'tips', enabled: 'no' }], 422, /enabled must be true or false/],
        [[], 422, /preferences/],
        [Array.from({ length: 101 }, () => ({ channel: 'sms', topic: 'tips', enabled: false })), 422, /preferences/],
      ];
      for (const [body, status, message] of cases) {
        const res = await put(body);
        expect([res.status, res.body.message]).toEqual([status, expect.stringMatching(message)]);
      }
      expect(await stored()).toEqual([]);
    });

    it('is counted in the project’s rate limit, like the inbox', async () => {
      const limited = await t.createProject();
      await t.http
        .patch(`/v1/admin/projects/${limited.id}`)
        .set('X-Api-Key', ADMIN_KEY)
        .send({ rate_limit_per_min: 3 })
        .expect(200);
      await t.http.post('/v1/subscribers').set('X-Api-Key', limited.key).send({ id: 'ann' }).expect(200);
      const auth = `Bearer ${await tokenOf('ann', limited)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await t.http.get('/v1/inbox/ann/preferences').set('Authorization', auth)).status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    });
  });

  it('settings.preference_topics is checked at write time, naming the entry and the fix', async () => {
    const patch = (preference_topics: unknown) =>
      t.http
        .patch(`/v1/admin/projects/${other.id}`)
        .set('X-Api-Key', ADMIN_KEY)
        .send({ settings: { preference_topics } });
    expect((await patch([{ id: 'ok' }, { id: 'Bad topic' }])).body.message).toMatch(
      /settings\.preference_topics\[1\] must be a topic id/,
    );
    expect((await patch([{ id: 'a', transactional: 'yes' }])).body.message).toMatch(
      /settings\.preference_topics\[0\]\.transactional must be true or false/,
    );
    expect((await patch('tips')).status).toBe(422);
    expect((await patch(['tips', { id: 'news', label: 'News' }])).status).toBe(200);
  });
});

import { createHmac } from 'node:crypto';
import { ConfigError, loadConfig } from '../src/config/app-config.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Links notifyd 0.x put in email already sent, built here exactly as 0.x built them
 * (reference §2.10–2.11): base64url without padding of the raw payload, a dot, base64url without
 * padding of HMAC-SHA256(JWT_SECRET bytes, raw payload). Not built with notifyd's own code, so a
 * mistake in the verifier cannot hide behind the same mistake in the signer.
 */
const OLD_SECRET = 'the-0x-jwt-secret-of-acme-2025';
const sign0x = (payload: string, secret = OLD_SECRET) =>
  `${Buffer.from(payload, 'utf8').toString('base64url')}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
const inDays = (days: number) => Math.floor(Date.now() / 1000) + days * 86_400;

describe('links notifyd 0.x sent keep working (JWT_LEGACY_SECRET)', () => {
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://notify.acme.example', JWT_LEGACY_SECRET: OLD_SECRET } });
    project = await t.createProject();
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'bob', email: 'bob@example.com' })
      .expect(200);
  });
  afterAll(() => t.close());

  const suppressions = () =>
    t.db.sql(
      `SELECT channel, address, scope, reason FROM suppressions WHERE project_id = $1 AND released_at IS NULL ORDER BY address`,
      [project.id],
    );
  const preferences = () =>
    t.db.sql(
      `SELECT channel, scope_kind, scope, enabled FROM subscriber_preferences WHERE project_id = $1 AND subscriber_id = 'bob'`,
      [project.id],
    );

  it('GET of a 0.x unsubscribe link shows the confirmation page and changes nothing; the one-click POST suppresses marketing email, once', async () => {
    const token = sign0x(`${project.id}|jane@example.com|${inDays(300)}`);
    expect(token).not.toContain('=');
    for (let i = 0; i < 2; i++) {
      const page = await t.http.get(`/u/${token}`);
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain('jane@example.com');
      expect(page.text).toContain(`<form method="post" action="/u/${token}?scope=marketing">`);
    }
    expect(await suppressions()).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const res = await t.http
        .post(`/u/${token}`)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('List-Unsubscribe=One-Click');
      expect(res.status).toBe(200);
      expect(res.text).toContain('jane@example.com will no longer receive marketing emails.');
    }
    expect(await suppressions()).toEqual([
      { channel: 'email', address: 'jane@example.com', scope: 'marketing', reason: 'unsubscribe' },
    ]);
  });

  it('a 0.x link signed for a topic stops that topic only (a preference), as 0.x did', async () => {
    const token = sign0x(`${project.id}|bob@example.com|${inDays(10)}|tips`);
    const page = await t.http.get(`/u/${token}`);
    expect(page.text).toContain(`action="/u/${token}?scope=topic"`);
    expect(await preferences()).toEqual([]);
    await t.http
      .post(`/u/${token}`)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    expect(await preferences()).toEqual([{ channel: 'email', scope_kind: 'topic', scope: 'tips', enabled: false }]);
    expect((await suppressions()).map((s) => s.address)).not.toContain('bob@example.com');
  });

  it('refuses expired, tampered, foreign-secret and padded-differently links with the 404 page, changing nothing', async () => {
    const before = await suppressions();
    const expired = sign0x(`${project.id}|old@example.com|${inDays(-1)}`);
    const good = sign0x(`${project.id}|eve@example.com|${inDays(5)}`);
    const [payload, mac] = good.split('.');
    const tampered = `${Buffer.from(`${project.id}|mallory@example.com|${inDays(5)}`).toString('base64url')}.${mac}`;
    const foreign = sign0x(`${project.id}|eve@example.com|${inDays(5)}`, 'some-other-secret-0123456789');
    for (const token of [expired, tampered, foreign, `${payload}.${mac}x`, `${payload}`]) {
      expect((await t.http.get(`/u/${token}`)).status).toBe(404);
      expect((await t.http.post(`/u/${token}`).send('List-Unsubscribe=One-Click')).status).toBe(404);
    }
    expect(await suppressions()).toEqual(before);
  });

  it('a 0.x click link redirects to its URL (a "|" inside the URL included); a forged one is unknown', async () => {
    const url = 'https://shop.example/p?a=1|2&utm=mail';
    const res = await t.http.get(`/t/c/${sign0x(`c|6f1c2b5e-8d1a-4d9e-9a51-0d6a3f1c9e77|${url}`)}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(url);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(
      (
        await t.http.get(
          `/t/c/${sign0x(`c|6f1c2b5e-8d1a-4d9e-9a51-0d6a3f1c9e77|${url}`, 'some-other-secret-0123456789')}`,
        )
      ).status,
    ).toBe(404);
    // Only http(s): a 0.x link to anything else is refused, not redirected.
    expect(
      (await t.http.get(`/t/c/${sign0x('c|6f1c2b5e-8d1a-4d9e-9a51-0d6a3f1c9e77|javascript:alert(1)')}`)).status,
    ).toBe(404);
    // A 0.x URL that does not parse is unknown (not a 500); a non-ASCII one redirects percent-encoded.
    expect(
      (await t.http.get(`/t/c/${sign0x('c|6f1c2b5e-8d1a-4d9e-9a51-0d6a3f1c9e77|http://exa%mple.com/')}`)).status,
    ).toBe(404);
    const intl = await t.http.get(`/t/c/${sign0x('c|6f1c2b5e-8d1a-4d9e-9a51-0d6a3f1c9e77|https://shop.example/日本')}`);
    expect(intl.status).toBe(302);
    expect(intl.headers.location).toBe('https://shop.example/%E6%97%A5%E6%9C%AC');
    // An unsubscribe token is not a click token, and the other way round.
    expect((await t.http.get(`/t/c/${sign0x(`${project.id}|jane@example.com|${inDays(3)}`)}`)).status).toBe(404);
    expect((await t.http.get(`/u/${sign0x(`c|6f1c2b5e|${url}`)}`)).status).toBe(404);
  });

  it('a 0.x open pixel still answers the GIF', async () => {
    const res = await t.http.get(`/t/o/${sign0x('o|6f1c2b5e-8d1a-4d9e-9a51-0d6a3f1c9e77')}.gif`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/gif');
  });
});

describe('JWT_LEGACY_SECRET validation', () => {
  it("refuses 0.x's well-known default and short values, naming the variable", () => {
    for (const value of ['change-me-in-production', 'short']) {
      try {
        loadConfig({ JWT_LEGACY_SECRET: value });
        throw new Error('accepted');
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as Error).message).toMatch(/JWT_LEGACY_SECRET/);
      }
    }
    expect(loadConfig({ JWT_LEGACY_SECRET: OLD_SECRET }).unsubscribe.legacySecret).toBe(OLD_SECRET);
  });
});

describe('without JWT_LEGACY_SECRET', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://notify.acme.example' } });
  });
  afterAll(() => t.close());

  it('0.x links are not accepted', async () => {
    const { id } = await t.createProject();
    expect((await t.http.get(`/u/${sign0x(`${id}|jane@example.com|${inDays(3)}`)}`)).status).toBe(404);
    expect((await t.http.get(`/t/c/${sign0x('c|6f1c2b5e|https://shop.example/')}`)).status).toBe(404);
  });
});

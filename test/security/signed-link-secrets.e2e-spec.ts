import { createHmac, randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/config/app-config.js';
import type { OutboundMessage } from '../../src/connectors/connector.js';
import { TrackingService } from '../../src/governance/tracking/tracking.service.js';
import { signTracking } from '../../src/governance/tracking/tracking-token.js';
import { UnsubscribeService } from '../../src/governance/unsubscribe/unsubscribe.service.js';
import { signUnsubscribeToken } from '../../src/common/unsubscribe/unsubscribe-token.js';
import { unsubscribeUrl } from '../../src/common/unsubscribe/unsubscribe-url.js';
import { type Notifyd, startNotifyd } from '../../src/main.js';
import { ADMIN_KEY, startTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

/**
 * Issue 18, finding "signed links forgeable when no secret is set": with DATABASE_URL or
 * ADMIN_API_KEY and no JWT_SECRET, the unsubscribe and click-tracking keys were HMACs of the
 * empty string, so anyone could suppress any address (/u/…) and use /t/c/… as an open redirect.
 */
const PUBLIC_URL = 'https://notify.acme.example';
const FIX =
  /JWT_SECRET is required when DATABASE_URL or ADMIN_API_KEY is set: set it to at least 16 random characters \(openssl rand -hex 24\)/;
const OLD_JWT = 'old-jwt-secret-0123456789abcdef';
const NEW_JWT = 'new-jwt-secret-0123456789abcdef';

/** The keys base notifyd derived when no secret was set: HMACs keyed with the empty string. */
const emptyKeyUnsubscribe = createHmac('sha256', '').update('notifyd unsubscribe links').digest('hex');
const emptyKeyTracking = createHmac('sha256', '').update('notifyd tracking links').digest('hex');
const legacyTrackingToken = (claim: unknown[], key: string) => {
  const body = Buffer.from(JSON.stringify(claim)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url').slice(0, 32)}`;
};
const far = () => Math.floor(Date.now() / 1000) + 86_400;

describe('a production start refuses to run without the secret its links need', () => {
  it.each([
    ['DATABASE_URL', { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/none' }],
    ['ADMIN_API_KEY', { ADMIN_API_KEY: 'admin-key-0123456789abcdef' }],
    [
      'DATABASE_URL and an empty JWT_SECRET',
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/none', JWT_SECRET: '  ' },
    ],
    [
      'DATABASE_URL and UNSUBSCRIBE_SECRET only',
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/none', UNSUBSCRIBE_SECRET: 'unsubscribe-secret-0123456789' },
    ],
  ])('with %s: the configuration error names JWT_SECRET and the fix', (_name, env) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(FIX);
  });

  it('the embedded first start (neither variable) still loads: it generates and persists its own', () => {
    expect(() => loadConfig({})).not.toThrow();
  });

  it('the services that sign links refuse to be built without any secret (no HMAC under an empty key)', () => {
    const config = loadConfig({ PUBLIC_URL });
    const none = undefined as never;
    expect(() => new UnsubscribeService(config, none, none, none)).toThrow(/JWT_SECRET/);
    expect(() => new TrackingService(config, none)).toThrow(/JWT_SECRET/);
  });

  it('the signing primitives refuse an empty or short key', () => {
    const claim = { projectId: 'acme', channel: 'email', address: 'jane@example.com', topic: null, expiresAt: far() };
    expect(() => signUnsubscribeToken(claim, { id: 'j', secret: '' })).toThrow(/at least 16/);
    expect(() => signTracking({ kind: 'o', jobId: 'j', projectId: 'p' }, { id: 'j', secret: '' })).toThrow(
      /at least 16/,
    );
    expect(() => signTracking({ kind: 'o', jobId: 'j', projectId: 'p' }, { id: 'j', secret: 'short' })).toThrow(
      /at least 16/,
    );
  });

  it('the forgery of the finding: no server starts for it, so the empty-key link has nowhere to work', async () => {
    const db = await createTestDatabase();
    try {
      const env = {
        DATABASE_URL: db.url,
        ADMIN_API_KEY: ADMIN_KEY,
        PUBLIC_URL,
        NOTIFYD_ROLE: 'api',
        LOG_LEVEL: 'silent',
        DATABASE_MAX_CONNECTIONS: '3',
      };
      const started: Notifyd | Error = await startNotifyd({ env, listen: true, logger: false }).catch(
        (err: Error) => err,
      );
      if (!(started instanceof Error)) {
        // The base code started: show what the finding describes, then fail.
        try {
          await fetch(`${started.url}/v1/admin/projects`, {
            method: 'POST',
            headers: { 'X-Api-Key': ADMIN_KEY, 'Content-Type': 'application/json' },
            body: JSON.stringify({ id: 'victim', name: 'Victim' }),
          });
          const forged = signUnsubscribeToken(
            { projectId: 'victim', channel: 'email', address: 'ceo@victim.example', topic: null, expiresAt: far() },
            { id: 'j', secret: emptyKeyUnsubscribe },
          );
          const res = await fetch(`${started.url}/u/${forged}?scope=marketing`, { method: 'POST' });
          const redirect = await fetch(
            `${started.url}/t/c/${legacyTrackingToken(['c', randomUUID(), 'victim', 'https://evil.example/'], emptyKeyTracking)}`,
            { redirect: 'manual' },
          );
          expect({ unsubscribe: res.status, redirect: redirect.status }).toEqual({ unsubscribe: 404, redirect: 404 });
        } finally {
          await started.close();
        }
      }
      expect(started).toBeInstanceOf(ConfigError);
      expect((started as Error).message).toMatch(FIX);
    } finally {
      await db.drop();
    }
  });
});

describe('links signed before a key rotation keep verifying', () => {
  let db: TestDatabase;
  const apps: TestApp[] = [];
  const start = async (env: Record<string, string>) => {
    const app = await startTestApp({ database: db, env: { PUBLIC_URL, ...env } });
    apps.push(app);
    return app;
  };
  /** What a mail client sees of one message: its unsubscribe link and its wrapped link, both signed by `app`. */
  const linksFrom = async (app: TestApp, projectId: string) => {
    const url = unsubscribeUrl({ projectId, channel: 'email', recipient: `reader-${randomUUID()}@example.com` })!;
    const message = {
      jobId: randomUUID(),
      projectId,
      channel: 'email',
      recipient: 'reader@example.com',
      subscriberId: null,
      bodyHtml: '<html><body><a href="https://shop.example/sale">Sale</a></body></html>',
      marketing: true,
      priority: 50,
      attempt: 1,
      idempotencyKey: randomUUID(),
      payload: {},
    } as OutboundMessage;
    await app.notifyd.app.get(TrackingService).instrument([message]);
    const click = /href="https:\/\/notify\.acme\.example(\/t\/c\/[^"]+)"/.exec(message.bodyHtml!)![1];
    return { unsubscribe: url.slice(PUBLIC_URL.length), click };
  };
  const works = async (app: TestApp, links: { unsubscribe: string; click: string }) => ({
    unsubscribe: (await app.http.get(links.unsubscribe)).status,
    click: (await app.http.get(links.click).redirects(0)).status,
  });

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await db.drop();
  });

  it('JWT_SECRET rotation: links signed with the old secret verify while it is listed in JWT_PREVIOUS_SECRETS', async () => {
    const before = await start({ JWT_SECRET: OLD_JWT });
    const project = await before.createProject();
    const links = await linksFrom(before, project.id);
    expect(links.unsubscribe).toMatch(/^\/u\/u1\.j\./);

    const rotated = await start({ JWT_SECRET: NEW_JWT, JWT_PREVIOUS_SECRETS: OLD_JWT });
    expect(await works(rotated, links)).toEqual({ unsubscribe: 200, click: 302 });
    expect((await rotated.http.get(links.click).redirects(0)).headers.location).toBe('https://shop.example/sale');
    const fresh = await linksFrom(rotated, project.id);
    expect(await works(rotated, fresh)).toEqual({ unsubscribe: 200, click: 302 });

    // Retired: once the old secret is no longer listed, its links stop working.
    const retired = await start({ JWT_SECRET: NEW_JWT });
    expect(await works(retired, links)).toEqual({ unsubscribe: 404, click: 404 });
    expect(await works(retired, fresh)).toEqual({ unsubscribe: 200, click: 302 });
  });

  it('UNSUBSCRIBE_SECRET rotation: tracking links name their key too, and the previous key still verifies them', async () => {
    const k1 = { UNSUBSCRIBE_SECRET: 'first-link-secret-0123456789', UNSUBSCRIBE_KEY_ID: 'k1' };
    const before = await start(k1);
    const project = await before.createProject();
    const links = await linksFrom(before, project.id);
    expect(links.click).toMatch(/^\/t\/c\/k1\./);

    const rotated = await start({
      UNSUBSCRIBE_SECRET: 'second-link-secret-0123456789',
      UNSUBSCRIBE_KEY_ID: 'k2',
      UNSUBSCRIBE_PREVIOUS_KEYS: 'k1:first-link-secret-0123456789',
    });
    expect(await works(rotated, links)).toEqual({ unsubscribe: 200, click: 302 });
    const retired = await start({ UNSUBSCRIBE_SECRET: 'second-link-secret-0123456789', UNSUBSCRIBE_KEY_ID: 'k2' });
    expect(await works(retired, links)).toEqual({ unsubscribe: 404, click: 404 });
  });

  it('tracking links sent before key ids existed (no key id) still verify with the key that signed them', async () => {
    const app = await start({ JWT_SECRET: NEW_JWT, JWT_PREVIOUS_SECRETS: OLD_JWT });
    const project = await app.createProject();
    const legacyKey = createHmac('sha256', OLD_JWT).update('notifyd tracking links').digest('hex');
    const legacy = legacyTrackingToken(['c', randomUUID(), project.id, 'https://shop.example/old'], legacyKey);
    const res = await app.http.get(`/t/c/${legacy}`).redirects(0);
    expect([res.status, res.headers.location]).toEqual([302, 'https://shop.example/old']);
  });

  it('a link forged with the empty-string key is refused', async () => {
    const app = await start({ JWT_SECRET: NEW_JWT });
    const project = await app.createProject();
    const forged = signUnsubscribeToken(
      { projectId: project.id, channel: 'email', address: 'ceo@acme.example', topic: null, expiresAt: far() },
      { id: 'j', secret: emptyKeyUnsubscribe },
    );
    expect((await app.http.post(`/u/${forged}?scope=marketing`)).status).toBe(404);
    expect(await db.sql(`SELECT 1 FROM suppressions WHERE project_id = $1`, [project.id])).toEqual([]);
    const body = Buffer.from(JSON.stringify(['c', randomUUID(), project.id, 'https://evil.example/'])).toString(
      'base64url',
    );
    const mac = (key: string, data: string) => createHmac('sha256', key).update(data).digest('base64url').slice(0, 32);
    for (const token of [
      legacyTrackingToken(['c', randomUUID(), project.id, 'https://evil.example/'], emptyKeyTracking),
      `j.${body}.${mac(emptyKeyTracking, `j.${body}`)}`,
      `j.${body}.${mac(emptyKeyTracking, body)}`,
    ]) {
      expect((await app.http.get(`/t/c/${token}`).redirects(0)).status).toBe(404);
    }
  });
});

import { signUnsubscribeToken } from '../src/governance/unsubscribe/unsubscribe-token.js';
import { unsubscribeUrl } from '../src/governance/unsubscribe/unsubscribe-url.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('one-click unsubscribe (RFC 8058)', () => {
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        PUBLIC_URL: 'https://notify.acme.example',
        UNSUBSCRIBE_SECRET: 'current-unsubscribe-secret-0123',
        UNSUBSCRIBE_KEY_ID: 'k2',
        UNSUBSCRIBE_PREVIOUS_KEYS: 'k1:previous-unsubscribe-secret-0123',
      },
    });
    project = await t.createProject();
    await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id: 'ana', email: 'Ana@Example.com', locale: 'es-MX' }).expect(200);
  });
  afterAll(() => t.close());

  const tokenFor = (address: string) => {
    const url = unsubscribeUrl({ projectId: project.id, channel: 'email', recipient: address });
    expect(url).toMatch(/^https:\/\/notify\.acme\.example\/u\/u1\.k2\./);
    return url!.slice('https://notify.acme.example/u/'.length);
  };
  const suppressions = () => t.db.sql(`SELECT channel, address, scope, reason, source, released_at FROM suppressions WHERE project_id = $1`, [project.id]);

  it('GET shows a confirmation page and never changes state', async () => {
    const token = tokenFor('jane@example.com');
    for (let i = 0; i < 3; i++) {
      const res = await t.http.get(`/u/${token}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toMatch(/noindex/);
      expect(res.text).toContain('Stop receiving these emails at jane@example.com?');
      expect(res.text).toContain(`<form method="post" action="/u/${token}">`);
      expect(res.text).toContain('<meta name="robots" content="noindex,nofollow">');
    }
    expect(await suppressions()).toEqual([]);
  });

  it('POST (the one-click form body mail clients send) suppresses marketing email to the address, once', async () => {
    const token = tokenFor('jane@example.com');
    for (let i = 0; i < 2; i++) {
      const res = await t.http.post(`/u/${token}`).set('Content-Type', 'application/x-www-form-urlencoded').send('List-Unsubscribe=One-Click');
      expect(res.status).toBe(200);
      expect(res.text).toContain('jane@example.com will no longer receive marketing emails.');
    }
    expect(await suppressions()).toEqual([{ channel: 'email', address: 'jane@example.com', scope: 'marketing', reason: 'unsubscribe', source: 'unsubscribe', released_at: null }]);

    // Marketing to that address stops; transactional mail still goes.
    const bulk = await t.http.post('/v1/send').set('X-Api-Key', project.key).send({ to: 'jane@example.com', channels: ['email'], priority: 'bulk', body: 'sale' });
    expect(bulk.body.job_ids).toEqual([]);
    expect(bulk.body.skipped[0].reason).toMatch(/suppressed on email \(unsubscribe, scope marketing\)/);
    const receipt = await t.http.post('/v1/send').set('X-Api-Key', project.key).send({ to: 'jane@example.com', channels: ['email'], body: 'your receipt' });
    expect(receipt.body.job_ids).toHaveLength(1);
  });

  it('speaks the subscriber’s language (es-MX → es), else the browser’s, else English', async () => {
    const es = await t.http.get(`/u/${tokenFor('ana@example.com')}`);
    expect(es.text).toContain('<html lang="es">');
    expect(es.text).toContain('¿Dejar de recibir estos correos en ana@example.com?');
    const de = await t.http.get(`/u/${tokenFor('nobody@example.com')}`).set('Accept-Language', 'it;q=0.9, de-CH, en;q=0.5');
    expect(de.text).toContain('Keine dieser E-Mails mehr an nobody@example.com erhalten?');
    const fr = await t.http.post(`/u/${tokenFor('nobody@example.com')}`).set('Accept-Language', 'fr-CA');
    expect(fr.text).toContain('nobody@example.com ne recevra plus d’e-mails commerciaux.');
  });

  it('accepts links signed with a previous key; refuses tampered, foreign-key and expired links with a 404 page', async () => {
    const claim = { projectId: project.id, channel: 'email', address: 'old@example.com', topic: null, expiresAt: Math.floor(Date.now() / 1000) + 3600 };
    const rotated = signUnsubscribeToken(claim, { id: 'k1', secret: 'previous-unsubscribe-secret-0123' });
    expect((await t.http.get(`/u/${rotated}`)).status).toBe(200);

    const forged = signUnsubscribeToken({ ...claim, address: 'ceo@example.com' }, { id: 'k2', secret: 'guessed-secret-000000000000' });
    const expired = signUnsubscribeToken({ ...claim, expiresAt: Math.floor(Date.now() / 1000) - 1 }, { id: 'k2', secret: 'current-unsubscribe-secret-0123' });
    const [v, k, , sig] = tokenFor('a@example.com').split('.');
    const swapped = `${v}.${k}.${Buffer.from(JSON.stringify({ p: project.id, c: 'email', a: 'ceo@example.com', e: 9_999_999_999 })).toString('base64url')}.${sig}`;
    for (const bad of [forged, expired, swapped, 'not-a-token', `u1.k9.${'a'.repeat(20)}.${'b'.repeat(43)}`]) {
      const get = await t.http.get(`/u/${encodeURIComponent(bad)}`);
      expect([bad, get.status]).toEqual([bad, 404]);
      expect(get.text).toContain('This unsubscribe link is not valid or has expired.');
      expect((await t.http.post(`/u/${encodeURIComponent(bad)}`)).status).toBe(404);
    }
    expect((await suppressions()).map((s) => s.address)).not.toContain('ceo@example.com');
  });
});

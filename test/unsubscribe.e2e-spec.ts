import { signUnsubscribeToken } from '../src/common/unsubscribe/unsubscribe-token.js';
import { unsubscribeUrl } from '../src/common/unsubscribe/unsubscribe-url.js';
import { SmtpSink } from './fakes/smtp-sink.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('one-click unsubscribe (RFC 8058)', () => {
  // Email goes out over real SMTP to a sink, so the tests read List-Unsubscribe as a mail client does.
  const sink = new SmtpSink();
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    const port = await sink.start();
    t = await startTestApp({
      env: {
        PUBLIC_URL: 'https://notify.acme.example',
        UNSUBSCRIBE_SECRET: 'current-unsubscribe-secret-0123',
        UNSUBSCRIBE_KEY_ID: 'k2',
        UNSUBSCRIBE_PREVIOUS_KEYS: 'k1:previous-unsubscribe-secret-0123',
        EMAIL_PROVIDER: 'smtp',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(port),
        SMTP_SECURITY: 'none',
        EMAIL_FROM: 'news@acme.example',
      },
    });
    project = await t.createProject();
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'ana', email: 'Ana@Example.com', locale: 'es-MX' })
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await sink.stop();
  });

  const tokenFor = (address: string) => {
    const url = unsubscribeUrl({ projectId: project.id, channel: 'email', recipient: address });
    expect(url).toMatch(/^https:\/\/notify\.acme\.example\/u\/u1\.k2\./);
    return url!.slice('https://notify.acme.example/u/'.length);
  };
  const suppressions = () =>
    t.db.sql(`SELECT channel, address, scope, reason, source, released_at FROM suppressions WHERE project_id = $1`, [
      project.id,
    ]);

  it('GET shows a confirmation page and never changes state', async () => {
    const token = tokenFor('jane@example.com');
    for (let i = 0; i < 3; i++) {
      const res = await t.http.get(`/u/${token}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toMatch(/noindex/);
      expect(res.text).toContain('Stop receiving these emails at jane@example.com?');
      expect(res.text).toContain(`<form method="post" action="/u/${token}?scope=marketing">`);
      // A link without a topic offers the broad choice only.
      expect(res.text).not.toContain('scope=topic');
      expect(res.text).toContain('<meta name="robots" content="noindex,nofollow">');
    }
    expect(await suppressions()).toEqual([]);
  });

  it('POST (the one-click form body mail clients send) suppresses marketing email to the address, once', async () => {
    const token = tokenFor('jane@example.com');
    for (let i = 0; i < 2; i++) {
      const res = await t.http
        .post(`/u/${token}`)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('List-Unsubscribe=One-Click');
      expect(res.status).toBe(200);
      expect(res.text).toContain('jane@example.com will no longer receive marketing emails.');
    }
    expect(await suppressions()).toEqual([
      {
        channel: 'email',
        address: 'jane@example.com',
        scope: 'marketing',
        reason: 'unsubscribe',
        source: 'unsubscribe',
        released_at: null,
      },
    ]);

    // Marketing to that address stops; transactional mail still goes.
    const bulk = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ to: 'jane@example.com', channels: ['email'], priority: 'bulk', body: 'sale' });
    expect(bulk.body.job_ids).toEqual([]);
    expect(bulk.body.skipped[0].reason).toMatch(/suppressed on email \(unsubscribe, scope marketing\)/);
    const receipt = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ to: 'jane@example.com', channels: ['email'], body: 'your receipt' });
    expect(receipt.body.job_ids).toHaveLength(1);
  });

  it('a one-click body over 64 KiB is a 413 and changes nothing (the route is public; the RFC 8058 body is 26 bytes)', async () => {
    const token = tokenFor('big-body@example.com');
    const res = await t.http
      .post(`/u/${token}`)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(`List-Unsubscribe=One-Click&pad=${'x'.repeat(70 * 1024)}`);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      error: 'payload_too_large',
      message: 'The body is larger than 65536 bytes, the most this route accepts.',
    });
    expect((await suppressions()).filter((r) => r.address === 'big-body@example.com')).toEqual([]);
  });

  it('speaks the subscriber’s language (es-MX → es), else the browser’s, else English', async () => {
    const es = await t.http.get(`/u/${tokenFor('ana@example.com')}`);
    expect(es.text).toContain('<html lang="es">');
    expect(es.text).toContain('¿Dejar de recibir estos correos en ana@example.com?');
    const de = await t.http
      .get(`/u/${tokenFor('nobody@example.com')}`)
      .set('Accept-Language', 'it;q=0.9, de-CH, en;q=0.5');
    expect(de.text).toContain('Keine dieser E-Mails mehr an nobody@example.com erhalten?');
    const fr = await t.http.post(`/u/${tokenFor('nobody@example.com')}`).set('Accept-Language', 'fr-CA');
    expect(fr.text).toContain('nobody@example.com ne recevra plus d’e-mails commerciaux.');
  });

  it('accepts links signed with a previous key; refuses tampered, foreign-key and expired links with a 404 page', async () => {
    const claim = {
      projectId: project.id,
      channel: 'email',
      address: 'old@example.com',
      topic: null,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    };
    const rotated = signUnsubscribeToken(claim, { id: 'k1', secret: 'previous-unsubscribe-secret-0123' });
    expect((await t.http.get(`/u/${rotated}`)).status).toBe(200);

    const forged = signUnsubscribeToken(
      { ...claim, address: 'ceo@example.com' },
      { id: 'k2', secret: 'guessed-secret-000000000000' },
    );
    const expired = signUnsubscribeToken(
      { ...claim, expiresAt: Math.floor(Date.now() / 1000) - 1 },
      { id: 'k2', secret: 'current-unsubscribe-secret-0123' },
    );
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

  describe('topic scope', () => {
    const api = (path: string, body: Record<string, unknown>) =>
      t.http.post(path).set('X-Api-Key', project.key).send(body);
    const send = async (body: Record<string, unknown>) => {
      const res = await api('/v1/send', { channels: ['email'], subject: 'News', body: 'Hello', ...body });
      expect(res.status).toBe(200);
      return res.body as { job_ids: string[]; skipped: { channel: string; reason: string }[]; topic: string | null };
    };
    const job = async (id: string) =>
      (await t.db.sql(`SELECT id, topic, status, provider, error FROM jobs WHERE id = $1`, [id]))[0];
    /** The token of the List-Unsubscribe link the sink received for a recipient (the header line as sent). */
    const linkTo = (to: string) => {
      const mail = sink.received.find((r) => r.to.includes(to));
      const line = mail?.parsed.headerLines.find((h) => h.key === 'list-unsubscribe')?.line.replace(/\r?\n\s+/g, ' ');
      const url = line?.match(/^List-Unsubscribe:\s*<(https:\/\/notify\.acme\.example\/u\/([^>]+))>$/i);
      expect([to, url?.[1]]).toEqual([to, expect.stringMatching(/^https:\/\/notify\.acme\.example\/u\/u1\.k2\./)]);
      return url![2];
    };
    /** A link as the email connectors sign it, for a topic. */
    const topicToken = (address: string, topic: string) =>
      unsubscribeUrl({ projectId: project.id, channel: 'email', recipient: address, topic })!.split('/u/')[1];
    const claimOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[2], 'base64url').toString('utf8')) as Record<string, unknown>;
    const prefs = (subscriber: string) =>
      t.db.sql(
        `SELECT channel, scope_kind, scope, enabled, updated_at FROM subscriber_preferences WHERE project_id = $1 AND subscriber_id = $2 ORDER BY scope`,
        [project.id, subscriber],
      );
    const audit = (action: string) =>
      t.db.sql(
        `SELECT actor, action, resource, metadata FROM audit_log WHERE project_id = $1 AND action = $2 ORDER BY id`,
        [project.id, action],
      );
    const suppressionsOf = async (address: string) => (await suppressions()).filter((s) => s.address === address);

    beforeAll(async () => {
      for (const sub of [
        { id: 'bob', email: 'bob@example.com' },
        { id: 'cleo', email: 'cleo@example.com', locale: 'fr-FR' },
        { id: 'dirk', email: 'dirk@example.com', locale: 'de' },
      ]) {
        await api('/v1/subscribers', sub).expect(200);
      }
      await api('/v1/templates', {
        id: 'weekly',
        channel: 'email',
        subject: 'This week',
        body: 'Digest for {{name}}',
        topic: 'weekly-digest',
      }).expect((r) => expect(r.status).toBeLessThan(300));
    });
    beforeEach(async () => {
      sink.reset();
      await t.db.sql(`DELETE FROM jobs`);
    });

    it('signs the job’s topic (the request’s, else its template’s) into the List-Unsubscribe link of the sent email', async () => {
      const tips = await send({ subscriber_id: 'bob', priority: 'bulk', topic: 'tips' });
      const weekly = await send({
        subscriber_id: 'cleo',
        priority: 'bulk',
        template: 'weekly',
        vars: { name: 'Cleo' },
      });
      const plain = await send({ to: 'raw@example.com', priority: 'bulk' });
      expect(await t.worker.drainOnce()).toBe(3);
      expect(await job(tips.job_ids[0])).toMatchObject({ topic: 'tips', status: 'sent', provider: 'smtp' });
      expect(await job(weekly.job_ids[0])).toMatchObject({ topic: 'weekly-digest', status: 'sent', provider: 'smtp' });
      expect(await job(plain.job_ids[0])).toMatchObject({ topic: null, status: 'sent' });
      expect(claimOf(linkTo('bob@example.com'))).toMatchObject({
        p: project.id,
        c: 'email',
        a: 'bob@example.com',
        t: 'tips',
      });
      expect(claimOf(linkTo('cleo@example.com'))).toMatchObject({ a: 'cleo@example.com', t: 'weekly-digest' });
      expect(claimOf(linkTo('raw@example.com'))).not.toHaveProperty('t');
      for (const to of ['bob@example.com', 'cleo@example.com']) {
        const post = sink.received
          .find((r) => r.to.includes(to))!
          .parsed.headerLines.find((h) => h.key === 'list-unsubscribe-post');
        expect(post?.line).toMatch(/^List-Unsubscribe-Post:\s*List-Unsubscribe=One-Click$/i);
      }
    });

    it('GET of a topic link offers “this topic only” first, then all marketing, and never changes state', async () => {
      await send({ subscriber_id: 'bob', priority: 'bulk', topic: 'tips' });
      await t.worker.drainOnce();
      const token = linkTo('bob@example.com');
      for (let i = 0; i < 3; i++) {
        const res = await t.http.get(`/u/${token}`);
        expect(res.status).toBe(200);
        expect(res.text).toContain('Stop receiving these emails at bob@example.com?');
        const topicForm = res.text.indexOf(
          `<form method="post" action="/u/${token}?scope=topic"><button type="submit">Unsubscribe from “tips” only</button></form>`,
        );
        const allForm = res.text.indexOf(
          `<form method="post" action="/u/${token}?scope=marketing"><button type="submit">Unsubscribe from all marketing emails</button></form>`,
        );
        expect(topicForm).toBeGreaterThan(0);
        expect(allForm).toBeGreaterThan(topicForm);
      }
      expect(await prefs('bob')).toEqual([]);
      expect(await suppressionsOf('bob@example.com')).toEqual([]);
      expect(await audit('preference.opted_out')).toEqual([]);
    });

    it('the one-click POST of a topic link opts the subscriber out of that topic (a preference, audited), once; that topic stops, others and transactional go', async () => {
      // Queued before the click: the worker's own check must catch it.
      const queued = await send({
        subscriber_id: 'bob',
        priority: 'bulk',
        topic: 'tips',
        body: 'queued before the click',
      });
      const before = await send({
        subscriber_id: 'bob',
        priority: 'bulk',
        topic: 'tips',
        body: 'the email with the link',
      });
      await t.db.sql(`UPDATE jobs SET run_at = now() + interval '1 hour' WHERE id = $1`, [queued.job_ids[0]]);
      expect(await t.worker.drainOnce()).toBe(1);
      expect((await job(before.job_ids[0])).status).toBe('sent');
      const token = linkTo('bob@example.com');

      for (let i = 0; i < 2; i++) {
        const res = await t.http
          .post(`/u/${token}`)
          .set('Content-Type', 'application/x-www-form-urlencoded')
          .send('List-Unsubscribe=One-Click');
        expect(res.status).toBe(200);
        expect(res.text).toContain('You will no longer receive “tips” emails.');
      }
      const [row] = await prefs('bob');
      expect(row).toMatchObject({ channel: 'email', scope_kind: 'topic', scope: 'tips', enabled: false });
      expect(await prefs('bob')).toHaveLength(1);
      // The second click wrote nothing: one audit line, the row untouched, no suppression.
      expect(await audit('preference.opted_out')).toEqual([
        {
          actor: 'unsubscribe',
          action: 'preference.opted_out',
          resource: 'bob',
          metadata: { channel: 'email', topic: 'tips' },
        },
      ]);
      await t.http.post(`/u/${token}`).send('List-Unsubscribe=One-Click').expect(200);
      expect((await prefs('bob'))[0].updated_at).toEqual(row.updated_at);
      expect(await suppressionsOf('bob@example.com')).toEqual([]);

      // Enqueue: the next marketing send of the topic is skipped; another topic and a transactional one are queued.
      const again = await send({ subscriber_id: 'bob', priority: 'bulk', topic: 'tips' });
      expect(again.job_ids).toEqual([]);
      expect(again.skipped).toEqual([{ channel: 'email', reason: "subscriber opted out of topic 'tips' on email" }]);
      const other = await send({ subscriber_id: 'bob', priority: 'bulk', topic: 'news', body: 'other topic' });
      const receipt = await send({ subscriber_id: 'bob', topic: 'tips', transactional: true, body: 'your receipt' });
      // Worker: the job queued before the click is closed unsent.
      await t.db.sql(`UPDATE jobs SET run_at = now() WHERE id = $1`, [queued.job_ids[0]]);
      sink.reset();
      expect(await t.worker.drainOnce()).toBe(3);
      expect(await job(queued.job_ids[0])).toMatchObject({
        status: 'sent',
        provider: 'skipped',
        error: "subscriber opted out of topic 'tips' on email",
      });
      expect(await job(other.job_ids[0])).toMatchObject({ status: 'sent', provider: 'smtp' });
      expect(await job(receipt.job_ids[0])).toMatchObject({ status: 'sent', provider: 'smtp' });
      expect(sink.received.map((m) => m.parsed.text?.trim()).sort()).toEqual(['other topic', 'your receipt']);
    });

    it('the page’s buttons in the subscriber’s language (es, fr, de): “only this topic” writes the preference, “all marketing” the suppression', async () => {
      const cases = [
        {
          sub: 'ana',
          address: 'ana@example.com',
          button: 'Darme de baja solo de «promo»',
          done: 'Ya no recibirás correos de «promo».',
          all: 'Darme de baja de todos los correos comerciales',
        },
        {
          sub: 'cleo',
          address: 'cleo@example.com',
          button: 'Me désinscrire de « promo » seulement',
          done: 'Vous ne recevrez plus les e-mails « promo ».',
          all: 'Me désinscrire de tous les e-mails commerciaux',
        },
        {
          sub: 'dirk',
          address: 'dirk@example.com',
          button: 'Nur von „promo“ abmelden',
          done: 'Sie erhalten keine „promo“-E-Mails mehr.',
          all: 'Von allen Werbe-E-Mails abmelden',
        },
      ];
      for (const c of cases) {
        const token = topicToken(c.address, 'promo');
        const page = await t.http.get(`/u/${token}`);
        expect(page.text).toContain(
          `<form method="post" action="/u/${token}?scope=topic"><button type="submit">${c.button}</button></form>`,
        );
        expect(page.text).toContain(
          `<form method="post" action="/u/${token}?scope=marketing"><button type="submit">${c.all}</button></form>`,
        );
        const done = await t.http.post(`/u/${token}?scope=topic`);
        expect([c.sub, done.status]).toEqual([c.sub, 200]);
        expect(done.text).toContain(c.done);
        expect((await prefs(c.sub)).filter((p) => p.scope === 'promo')).toMatchObject([
          { channel: 'email', scope_kind: 'topic', enabled: false },
        ]);
        expect(await suppressionsOf(c.address)).toEqual([]);
      }

      // “All marketing” on a topic link: the marketing suppression, no preference.
      const dirk = topicToken('dirk@example.com', 'offers');
      const all = await t.http.post(`/u/${dirk}?scope=marketing`);
      expect(all.status).toBe(200);
      expect(all.text).toContain('dirk@example.com erhält keine Werbe-E-Mails mehr.');
      expect(await suppressionsOf('dirk@example.com')).toMatchObject([
        { scope: 'marketing', reason: 'unsubscribe', source: 'unsubscribe' },
      ]);
      expect((await prefs('dirk')).map((p) => p.scope)).toEqual(['promo']);
    });

    it('an address with no subscriber falls back to the marketing suppression, and the page says so', async () => {
      const token = topicToken('walkin@example.com', 'tips');
      for (let i = 0; i < 2; i++) {
        const res = await t.http.post(`/u/${token}`).send('List-Unsubscribe=One-Click');
        expect(res.status).toBe(200);
        expect(res.text).toContain(
          'walkin@example.com has no subscription settings here, so “tips” alone could not be stopped: walkin@example.com will no longer receive any marketing emails.',
        );
      }
      expect(await suppressionsOf('walkin@example.com')).toMatchObject([
        { scope: 'marketing', reason: 'unsubscribe', released_at: null },
      ]);
    });

    it('refuses a choice the link does not offer (400 naming scope), a tampered topic and a wrong key (404), changing nothing', async () => {
      const topicLink = topicToken('bob@example.com', 'alerts');
      const bad = await t.http.post(`/u/${topicLink}?scope=everything`);
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('scope must be &quot;topic&quot; or &quot;marketing&quot;.');
      const noTopic = await t.http.post(`/u/${tokenFor('bob@example.com')}?scope=topic`);
      expect(noTopic.status).toBe(400);
      expect(noTopic.text).toContain(
        'scope=topic needs a link signed for a topic, and this one has none: use scope=marketing.',
      );

      // The topic swapped in the claim (another topic, or none) with the signature kept; a link signed with a key we never had.
      const [v, k, body, sig] = topicLink.split('.');
      const claim = claimOf(topicLink);
      const swapped = (c: Record<string, unknown>) =>
        `${v}.${k}.${Buffer.from(JSON.stringify(c)).toString('base64url')}.${sig}`;
      const wrongKey = signUnsubscribeToken(
        {
          projectId: project.id,
          channel: 'email',
          address: 'bob@example.com',
          topic: 'alerts',
          expiresAt: Number(claim.e),
        },
        { id: 'k2', secret: 'not-our-secret-0123456789' },
      );
      expect(body).toBe(Buffer.from(JSON.stringify(claim)).toString('base64url'));
      for (const token of [swapped({ ...claim, t: 'billing' }), swapped({ ...claim, t: undefined }), wrongKey]) {
        const res = await t.http.post(`/u/${token}`).send('List-Unsubscribe=One-Click');
        expect(res.status).toBe(404);
        expect(res.text).toContain('This unsubscribe link is not valid or has expired.');
      }
      expect((await prefs('bob')).map((p) => p.scope)).toEqual(['tips']);
      expect(await suppressionsOf('bob@example.com')).toEqual([]);
    });
  });
});

import { jobRow, projectApi } from './helpers/project-api.js';
import { RecordingConnector, RecordingConnectorModule } from './helpers/recording-connector.js';
import { RecordingEmailConnector, RecordingEmailModule } from './helpers/recording-email-connector.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('templates', () => {
  let t: TestApp;
  let sms: RecordingConnector;
  let email: RecordingEmailConnector;
  let project: { id: string; key: string };
  let other: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      // 1 s: ends the runaway templates below soon, yet a render thread a loaded machine is slow
      // to schedule (its wait counts against the limit) does not fail an ordinary template.
      env: { SMS_PROVIDER: 'recording', EMAIL_PROVIDER: 'recording-email', TEMPLATE_RENDER_LIMIT_MS: '1000' },
      imports: [RecordingConnectorModule, RecordingEmailModule],
    });
    sms = t.notifyd.app.get(RecordingConnector);
    email = t.notifyd.app.get(RecordingEmailConnector);
    project = await t.createProject();
    other = await t.createProject();
    await t.db.sql(
      `INSERT INTO subscribers (project_id, id, email, phone, locale) VALUES
         ($1, 'mx', 'mx@example.com', '+5215500000001', 'es-MX'),
         ($1, 'ar', 'ar@example.com', '+5491100000001', 'es-AR'),
         ($1, 'de', 'de@example.com', '+4915100000001', 'de-DE'),
         ($1, 'none', 'none@example.com', '+33600000009', NULL)`,
      [project.id],
    );
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    sms.reset();
    email.reset();
    await t.db.sql(`DELETE FROM jobs`);
    await t.db.sql(`DELETE FROM templates`);
  });

  // t and project exist only once beforeAll has run: bind them per call.
  const api = (key = project.key) => projectApi(t, key);
  const job = (id: string) => jobRow(t, id);
  const save = async (body: object) => {
    const res = await api().post('/v1/templates', body);
    expect(res.status).toBe(200);
    return res.body;
  };

  it('CRUD: upsert per id × channel × locale, list, get with variants, delete one locale or all', async () => {
    expect(
      await save({
        id: 'welcome',
        channel: 'email',
        subject: 'Welcome {{name}}',
        body: 'Hi {{name}}',
        topic: 'Onboarding',
      }),
    ).toMatchObject({ success: true, id: 'welcome', channel: 'email', locale: null, created: true });
    expect(
      await save({
        id: 'welcome',
        channel: 'email',
        locale: 'es',
        subject: 'Bienvenido {{name}}',
        body: 'Hola {{name}}',
      }),
    ).toMatchObject({ locale: 'es', created: true });
    expect(await save({ id: 'welcome', channel: 'sms', body: 'Hi {{name}}' })).toMatchObject({ created: true });
    expect(await save({ id: 'welcome', channel: 'sms', body: 'Hey {{name}}' })).toMatchObject({ created: false });

    const got = await api().get('/v1/templates/welcome');
    expect(got.body.template_id).toBe('welcome');
    expect(got.body.variants.map((v: { channel: string; locale: string | null }) => [v.channel, v.locale])).toEqual([
      ['email', null],
      ['email', 'es'],
      ['sms', null],
    ]);
    expect(got.body.variants[0].topic).toBe('onboarding');
    expect(got.body.variants[2].body).toBe('Hey {{name}}');

    const list = await api().get('/v1/templates?limit=2');
    expect(list.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(list.body.items).toHaveLength(2);
    expect((await api().get('/v1/templates?channel=sms')).body.total).toBe(1);
    expect((await api(other.key).get('/v1/templates/welcome')).status).toBe(404);

    expect((await api().del('/v1/templates/welcome?channel=email&locale=es')).body).toEqual({
      success: true,
      deleted: 1,
    });
    expect((await api().del('/v1/templates/welcome')).body).toEqual({ success: true, deleted: 2 });
    expect((await api().get('/v1/templates/welcome')).status).toBe(404);
    expect((await api().del('/v1/templates/welcome')).status).toBe(404);
  });

  it('lists by keyset cursor: every variant once, in order, across pages; offset still works (deprecated); a bad cursor is a 400', async () => {
    const variants: [string, string, string | undefined][] = [
      ['a', 'email', undefined],
      ['a', 'email', 'es'],
      ['a', 'sms', undefined],
      ['b', 'email', 'de'],
      ['b', 'push', undefined],
      ['c', 'email', undefined],
      ['c', 'email', 'fr'],
      ['c', 'sms', 'fr'],
    ];
    for (const [id, channel, locale] of variants)
      await save({ id, channel, locale, body: `${id} ${channel} ${locale ?? ''}` });
    const key = (v: { id: string; channel: string; locale: string | null }) => `${v.id}/${v.channel}/${v.locale ?? ''}`;
    const all = (await api().get('/v1/templates?limit=200')).body;
    expect(all).toMatchObject({ total: 8, next_cursor: null });
    expect(all.items.map(key)).toEqual(variants.map(([id, channel, locale]) => `${id}/${channel}/${locale ?? ''}`));

    const paged: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api().get(`/v1/templates?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      // total counts the whole listing (the late variant too), not the rows after the cursor.
      expect(res.body).toMatchObject({ total: pages === 0 ? 8 : 9, limit: 3, offset: 0 });
      paged.push(...res.body.items.map(key));
      cursor = res.body.next_cursor;
      // A variant sorting before the cursor, written between pages, neither repeats nor shifts a row.
      if (pages++ === 0) await save({ id: 'a', channel: 'email', locale: 'de', body: 'late' });
    } while (cursor);
    expect(pages).toBe(3);
    expect(paged).toEqual(all.items.map(key));

    const emails: string[] = [];
    let page = (await api().get('/v1/templates?limit=2&channel=email')).body;
    emails.push(...page.items.map(key));
    while (page.next_cursor) {
      page = (await api().get(`/v1/templates?limit=2&channel=email&cursor=${page.next_cursor}`)).body;
      emails.push(...page.items.map(key));
    }
    expect(emails).toEqual(['a/email/', 'a/email/de', 'a/email/es', 'b/email/de', 'c/email/', 'c/email/fr']);

    const byOffset = await api().get('/v1/templates?limit=3&offset=3');
    expect(byOffset.body).toMatchObject({ total: 9, limit: 3, offset: 3 });
    expect(byOffset.body.items.map(key)).toEqual(['a/sms/', 'b/email/de', 'b/push/']);
    expect((await api().get('/v1/templates?offset=50')).body).toMatchObject({ items: [], total: 9, next_cursor: null });

    const subscriberCursor = Buffer.from(JSON.stringify(['user_1'])).toString('base64url');
    const wrongChannel = Buffer.from(JSON.stringify(['a', 'fax', ''])).toString('base64url');
    for (const bad of ['not-a-cursor', subscriberCursor, wrongChannel]) {
      const res = await api().get(`/v1/templates?cursor=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_cursor', message: expect.stringContaining('cursor') });
    }
    const firstCursor = (await api().get('/v1/templates?limit=1')).body.next_cursor;
    const both = await api().get(`/v1/templates?offset=3&cursor=${firstCursor}`);
    expect(both.status).toBe(422);
    expect(both.body.message).toMatch(/cursor or offset/);
  });

  it('refuses a template that does not parse, naming the part, and invalid fields', async () => {
    const res = await api().post('/v1/templates', {
      id: 'broken',
      channel: 'email',
      body: 'ok',
      body_html: '<p>{% if x %}unclosed</p>',
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('template_invalid');
    expect(res.body.message).toMatch(/^body_html does not parse/);
    const bad = await api().post('/v1/templates', { id: 'has space', channel: 'fax', body: 'x', topic: '*' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/id must be 1–128 characters|channel must be one of|topic must be/);
  });

  it('preview renders with sample vars, escapes HTML output but not text, and follows the locale fallback', async () => {
    await save({
      id: 'order',
      channel: 'email',
      subject: 'Order {{id}}',
      body: 'Hi {{name}}',
      body_html: '<p>Hi {{name}}</p>{{ note | raw }}',
    });
    await save({ id: 'order', channel: 'email', locale: 'es', subject: 'Pedido {{id}}', body: 'Hola {{name}}' });
    await save({
      id: 'order',
      channel: 'email',
      locale: 'es-MX',
      subject: 'Pedido {{id}} 🇲🇽',
      body: 'Qué onda {{name}}',
    });
    const vars = { id: 'A-1', name: '<b>Jane</b>', note: '<i>trusted</i>' };
    const def = await api().post('/v1/templates/order/preview', { vars });
    expect(def.status).toBe(200);
    expect(def.body).toMatchObject({
      template_id: 'order',
      channel: 'email',
      locale: null,
      subject: 'Order A-1',
      body: 'Hi <b>Jane</b>',
      body_html: '<p>Hi &lt;b&gt;Jane&lt;/b&gt;</p><i>trusted</i>',
    });
    expect((await api().post('/v1/templates/order/preview', { vars, locale: 'es-MX' })).body).toMatchObject({
      locale: 'es-MX',
      subject: 'Pedido A-1 🇲🇽',
    });
    expect((await api().post('/v1/templates/order/preview', { vars, locale: 'es-AR' })).body).toMatchObject({
      locale: 'es',
      subject: 'Pedido A-1',
    });
    expect((await api().post('/v1/templates/order/preview', { vars, locale: 'de' })).body).toMatchObject({
      locale: null,
      subject: 'Order A-1',
    });
    // Unknown variables render empty (Liquid), filters and conditions work.
    await save({ id: 'logic', channel: 'sms', body: '{% if vip %}VIP {% endif %}{{ name | upcase }}{{ missing }}!' });
    expect((await api().post('/v1/templates/logic/preview', { vars: { vip: true, name: 'jane' } })).body.body).toBe(
      'VIP JANE!',
    );
    expect((await api().post('/v1/templates/order/preview', { channel: 'sms' })).status).toBe(404);
  });

  it('preview of a runaway template is stopped by the render limit with a readable 422', async () => {
    await save({ id: 'loop', channel: 'sms', body: '{% for i in (1..1000000000) %}{{ i }}{% endfor %}' });
    const res = await api().post('/v1/templates/loop/preview', {});
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('template_render_failed');
    expect(res.body.message).toMatch(/^body failed to render: .*limit/i);
  });

  it('a send with a template renders per channel and per recipient locale in the worker; the template topic is the default', async () => {
    await save({ id: 'shipped', channel: 'sms', body: 'Your order {{order}} shipped', topic: 'orders' });
    await save({ id: 'shipped', channel: 'sms', locale: 'es', body: 'Tu pedido {{order}} fue enviado' });
    await save({ id: 'shipped', channel: 'sms', locale: 'es-MX', body: 'Tu pedido {{order}} ya va en camino' });
    await save({
      id: 'shipped',
      channel: 'email',
      subject: 'Shipped: {{order}}',
      body: 'Order {{order}}',
      body_html: '<p>Order {{order}}</p>',
    });
    const ids: Record<string, string[]> = {};
    for (const who of ['mx', 'ar', 'de', 'none']) {
      const res = await api().post('/v1/send', {
        channels: ['sms', 'email'],
        subscriber_id: who,
        template: 'shipped',
        vars: { order: '<A-7>' },
      });
      expect(res.status).toBe(200);
      expect(res.body.topic).toBe('orders');
      ids[who] = res.body.job_ids;
    }
    const [row] = await t.db.sql(`SELECT template_id, topic FROM jobs WHERE id = $1`, [ids.mx[0]]);
    expect(row).toEqual({ template_id: 'shipped', topic: 'orders' });
    await t.worker.drainOnce();
    const byRecipient = Object.fromEntries(sms.messages.map((m) => [m.subscriberId, m.body]));
    expect(byRecipient).toEqual({
      mx: 'Tu pedido <A-7> ya va en camino',
      ar: 'Tu pedido <A-7> fue enviado',
      de: 'Your order <A-7> shipped',
      none: 'Your order <A-7> shipped',
    });
    const mail = email.messages.find((m) => m.subscriberId === 'mx')!;
    expect(mail).toMatchObject({
      subject: 'Shipped: <A-7>',
      body: 'Order <A-7>',
      bodyHtml: '<p>Order &lt;A-7&gt;</p>',
    });
    // A request's own topic wins over the template's.
    const own = await api().post('/v1/send', {
      channel: 'sms',
      subscriber_id: 'mx',
      template: 'shipped',
      topic: 'promo',
    });
    expect(own.body.topic).toBe('promo');
  });

  it('a channel without a variant uses the inline fields; an unknown template is a 422 naming the field', async () => {
    await save({ id: 'email_only', channel: 'email', subject: 'S', body: 'from template' });
    const res = await api().post('/v1/send', {
      channel: 'sms',
      to: '+33600000077',
      template: 'email_only',
      body: 'inline {{x}}',
      vars: { x: 1 },
    });
    await t.worker.drainOnce();
    expect((await job(res.body.job_ids[0])).status).toBe('sent');
    expect(sms.messages[0].body).toBe('inline 1');
    const unknown = await api().post('/v1/send', { channel: 'sms', to: '+33600000077', template: 'nope' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ error: 'template_not_found' });
    expect(unknown.body.message).toMatch(/^template 'nope' does not exist/);
  });

  it('a send may name the locale (a `to` send has no subscriber to take it from); a bad tag is a 422', async () => {
    await save({ id: 'hello', channel: 'sms', body: 'Hello' });
    await save({ id: 'hello', channel: 'sms', locale: 'es-MX', body: 'Quiubo' });
    await save({ id: 'hello', channel: 'sms', locale: 'fr', body: 'Bonjour' });
    await api().post('/v1/send', { channel: 'sms', to: '+33600000071', template: 'hello', locale: 'es-mx' });
    await api().post('/v1/send', { channel: 'sms', to: '+33600000072', template: 'hello' });
    // The request's locale wins over the subscriber's (de-DE here).
    await api().post('/v1/send', { channel: 'sms', subscriber_id: 'de', template: 'hello', locale: 'fr-CA' });
    await t.worker.drainOnce();
    expect(Object.fromEntries(sms.messages.map((m) => [m.recipient, m.body]))).toEqual({
      '+33600000071': 'Quiubo',
      '+33600000072': 'Hello',
      '+4915100000001': 'Bonjour',
    });
    const bad = await api().post('/v1/send', {
      channel: 'sms',
      to: '+33600000073',
      template: 'hello',
      locale: 'not a locale',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/locale must be a language tag/);
  });

  it('an unbounded loop template is stopped by the limits and fails only its job, permanently, with a readable error', async () => {
    await save({ id: 'fine', channel: 'sms', body: 'fine {{n}}' });
    await save({ id: 'runaway', channel: 'sms', body: 'x' });
    const good1 = await api().post('/v1/send', {
      channel: 'sms',
      to: '+33600000081',
      template: 'fine',
      vars: { n: 1 },
    });
    const bad = await api().post('/v1/send', { channel: 'sms', to: '+33600000082', template: 'runaway' });
    const good2 = await api().post('/v1/send', {
      channel: 'sms',
      to: '+33600000083',
      template: 'fine',
      vars: { n: 2 },
    });
    // The tenant changes the template into a loop after the send was queued: the worker renders it.
    await t.db.sql(
      `UPDATE templates SET body = '{% for i in (1..1000000000) %}{{ i }}{% endfor %}' WHERE id = 'runaway'`,
    );
    await t.worker.drainOnce();
    const failed = await job(bad.body.job_ids[0]);
    expect(failed.status).toBe('failed');
    expect(failed.attempts).toBe(1);
    expect(failed.error).toMatch(/^template 'runaway' \(sms\): body failed to render: .*limit/i);
    expect((await job(good1.body.job_ids[0])).status).toBe('sent');
    expect((await job(good2.body.job_ids[0])).status).toBe('sent');
    expect(sms.messages.map((m) => m.body).sort()).toEqual(['fine 1', 'fine 2']);
  });

  it('a memory bomb is stopped by the memory limit', async () => {
    await save({ id: 'bomb', channel: 'sms', body: 'x' });
    const res = await api().post('/v1/send', { channel: 'sms', to: '+33600000091', template: 'bomb' });
    await t.db.sql(
      `UPDATE templates SET body = '{% assign s = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}' WHERE id = 'bomb'`,
    );
    await t.worker.drainOnce();
    const row = await job(res.body.job_ids[0]);
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/^template 'bomb' \(sms\): body failed to render: .*limit/i);
  });
});

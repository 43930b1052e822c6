import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('audience: subscribers (time zone, locale, deletion) and topics', () => {
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp();
    project = await t.createProject();
  });
  afterAll(() => t.close());

  const post = (path: string, body: object) => t.http.post(path).set('X-Api-Key', project.key).send(body);

  it('validates the time zone against the IANA database and the locale as BCP 47, storing it canonical', async () => {
    const bad = await post('/v1/subscribers', { id: 'tz1', timezone: 'Europe/Atlantis' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/timezone must be an IANA time zone/);
    const badLocale = await post('/v1/subscribers', { id: 'tz1', locale: 'english please' });
    expect(badLocale.status).toBe(422);
    expect(badLocale.body.message).toMatch(/locale must be a language tag \(BCP 47\)/);
    const ok = await post('/v1/subscribers', {
      id: 'tz1',
      timezone: 'America/Argentina/Buenos_Aires',
      locale: 'es-mx',
    });
    expect(ok.status).toBe(200);
    const got = await t.http.get('/v1/subscribers/tz1').set('X-Api-Key', project.key);
    expect(got.body).toMatchObject({ timezone: 'America/Argentina/Buenos_Aires', locale: 'es-MX' });
    expect((await post('/v1/subscribers', { id: 'tz2', locale: 'zh-Hant-TW' })).status).toBe(200);
  });

  it('deleting a subscriber deletes their inbox messages, push tokens and preferences', async () => {
    await post('/v1/subscribers', { id: 'gone', email: 'gone@example.com' });
    await t.db.sql(`INSERT INTO inbox_messages (project_id, subscriber_id, body) VALUES ($1, 'gone', 'hello')`, [
      project.id,
    ]);
    await t.db.sql(
      `INSERT INTO push_tokens (project_id, subscriber_id, token, platform) VALUES ($1, 'gone', 'fcm-token-1', 'fcm')`,
      [project.id],
    );
    await t.db.sql(
      `INSERT INTO subscriber_preferences (project_id, subscriber_id, channel, scope_kind, scope, enabled) VALUES ($1, 'gone', '*', 'all', '*', false)`,
      [project.id],
    );
    expect((await t.http.delete('/v1/subscribers/gone').set('X-Api-Key', project.key)).status).toBe(200);
    for (const table of ['inbox_messages', 'push_tokens', 'subscriber_preferences']) {
      expect([
        table,
        await t.db.sql(`SELECT 1 FROM ${table} WHERE project_id = $1 AND subscriber_id = 'gone'`, [project.id]),
      ]).toEqual([table, []]);
    }
  });

  it('a send carries its topic, lower-cased, onto its jobs and the answer', async () => {
    const res = await post('/v1/send', { channel: 'in_app', subscriber_id: 'tz1', body: 'x', topic: 'Order-Updates' });
    expect(res.status).toBe(200);
    expect(res.body.topic).toBe('order-updates');
    const [row] = await t.db.sql(`SELECT topic FROM jobs WHERE id = $1`, [res.body.job_ids[0]]);
    expect(row.topic).toBe('order-updates');
  });

  it('rejects a malformed topic naming the field', async () => {
    for (const topic of ['*', 'has space', 'x'.repeat(65), '']) {
      const res = await post('/v1/send', { channel: 'in_app', subscriber_id: 'tz1', body: 'x', topic });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/topic must be 1–64 characters/);
    }
  });

  it('batch takes a topic and refuses transactional with a 400 naming the field', async () => {
    const ok = await post('/v1/batch', { channel: 'in_app', subscribers: ['tz1', 'tz2'], body: 'x', topic: 'news' });
    expect(ok.body).toMatchObject({ jobs_created: 2, topic: 'news' });
    const tx = await post('/v1/batch', { channel: 'in_app', subscribers: ['tz1'], body: 'x', transactional: true });
    expect(tx.status).toBe(400);
    expect(tx.body).toMatchObject({ error: 'transactional_not_allowed' });
    expect(tx.body.message).toMatch(/^transactional is not accepted by \/v1\/batch/);
  });
});

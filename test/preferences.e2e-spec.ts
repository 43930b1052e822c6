import { PreferencesRepository } from '../src/governance/preferences/preferences.repository.js';
import { RecordingConnector, RecordingConnectorModule } from './helpers/recording-connector.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('preferences', () => {
  let t: TestApp;
  let sms: RecordingConnector;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: { SMS_PROVIDER: 'recording', OUTBOUND_ALLOW_LOOPBACK: 'true' },
      imports: [RecordingConnectorModule],
    });
    sms = t.notifyd.app.get(RecordingConnector);
    project = await t.createProject();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    sms.reset();
    await t.db.sql(`DELETE FROM jobs`);
    await t.db.sql(`DELETE FROM subscriber_preferences`);
    await t.db.sql(`DELETE FROM suppressions`);
    for (const [id, phone] of [
      ['ann', '+33611111111'],
      ['bob', '+33622222222'],
      ['cid', '+33633333333'],
    ]) {
      await t.db.sql(
        `INSERT INTO subscribers (project_id, id, phone, email) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [project.id, id, phone, `${id}@example.com`],
      );
    }
  });

  const api = {
    post: (path: string, body: object) => t.http.post(path).set('X-Api-Key', project.key).send(body),
    put: (path: string, body: object) => t.http.put(path).set('X-Api-Key', project.key).send(body),
    get: (path: string) => t.http.get(path).set('X-Api-Key', project.key),
  };
  const prefer = async (id: string, preferences: object[]) => {
    const res = await api.put(`/v1/subscribers/${id}/preferences`, { preferences });
    expect(res.status).toBe(200);
    return res.body;
  };
  const job = async (id: string) => (await t.db.sql(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];

  it('PUT writes rows (upsert per channel × scope) and GET reads them back in notifyd’s shape', async () => {
    expect(
      await prefer('ann', [
        { channel: 'email', topic: 'Tips', enabled: false },
        { channel: '*', enabled: true },
        { channel: 'sms', workflow_id: 'weekly', enabled: false },
      ]),
    ).toEqual({ success: true, updated: 3 });
    expect((await prefer('ann', [{ channel: 'email', topic: 'tips', enabled: true }])).updated).toBe(1);
    const got = await api.get('/v1/subscribers/ann/preferences');
    expect(got.status).toBe(200);
    const simplified = got.body.preferences.map((p: Record<string, unknown>) => [
      p.channel,
      p.scope_kind,
      p.topic,
      p.workflow_id,
      p.enabled,
    ]);
    expect(simplified).toEqual([
      ['*', 'all', null, '*', true],
      ['email', 'topic', 'tips', 'tips', true],
      ['sms', 'workflow', null, 'weekly', false],
    ]);
  });

  it('one marketing model: an opt-out of the marketing topic stops bulk, category-tagged and marketing:* sends, without topic, at send and at enqueue', async () => {
    await prefer('ann', [{ channel: '*', topic: 'marketing', enabled: false }]);
    const send = (body: object) =>
      api.post('/v1/send', { channel: 'sms', subscriber_id: 'ann', body: 'Spring sale', ...body });
    // Tagged category=marketing, no topic, no priority: refused at enqueue (the opt-out is already known).
    const tagged = await send({ tags: [{ name: 'category', value: 'marketing' }] });
    expect(tagged.status).toBe(200);
    expect(tagged.body.job_ids).toEqual([]);
    expect(tagged.body.skipped).toEqual([
      expect.objectContaining({ channel: 'sms', reason: expect.stringMatching(/opted out of marketing/) }),
    ]);
    expect((await send({ priority: 'bulk' })).body.job_ids).toEqual([]);
    expect((await send({ topic: 'marketing:spring' })).body.job_ids).toEqual([]);
    // Transactional and ordinary messages still go.
    const receipt = await send({ body: 'Your receipt' });
    expect(receipt.body.job_ids).toHaveLength(1);
    // Opted out after enqueue: the worker's check stops the queued campaign too.
    await prefer('bob', [{ channel: 'sms', topic: 'tips', enabled: true }]);
    const queued = await api.post('/v1/send', {
      channel: 'sms',
      subscriber_id: 'bob',
      body: 'Spring sale',
      tags: [{ name: 'category', value: 'newsletter' }],
    });
    expect(queued.body.job_ids).toHaveLength(1);
    await prefer('bob', [{ channel: 'sms', topic: 'marketing', enabled: false }]);
    await t.worker.drainOnce();
    expect(await job(queued.body.job_ids[0])).toMatchObject({
      status: 'sent',
      provider: 'skipped',
      error: 'subscriber opted out of marketing on sms',
    });
    expect(sms.messages.map((m) => [m.subscriberId, m.body])).toEqual([['ann', 'Your receipt']]);
  });

  it('validates: unknown subscriber 404, topic and workflow_id together 422, bad topic and channel 422', async () => {
    expect(
      (await api.put('/v1/subscribers/nobody/preferences', { preferences: [{ channel: 'email', enabled: false }] }))
        .status,
    ).toBe(404);
    expect((await api.get('/v1/subscribers/nobody/preferences')).status).toBe(404);
    const both = await api.put('/v1/subscribers/ann/preferences', {
      preferences: [{ channel: 'email', topic: 'a', workflow_id: 'b', enabled: false }],
    });
    expect(both.status).toBe(422);
    expect(both.body.message).toMatch(/topic or by workflow_id, not both/);
    const bad = await api.put('/v1/subscribers/ann/preferences', {
      preferences: [{ channel: 'fax', topic: 'no spaces', enabled: 'no' }],
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toMatch(/channel must be one of/);
    expect(JSON.stringify(bad.body)).toMatch(/topic must be 1–64 characters/);
    expect(JSON.stringify(bad.body)).toMatch(/enabled must be true or false/);
  });

  it('/v1/send skips opted-out channels with notifyd’s reasons; a narrower opt-in wins', async () => {
    await prefer('ann', [{ channel: 'sms', enabled: false }]);
    const res = await api.post('/v1/send', { channels: ['sms', 'in_app'], subscriber_id: 'ann', body: 'x' });
    expect(res.body.channels).toEqual(['in_app']);
    expect(res.body.skipped).toEqual([{ channel: 'sms', reason: 'subscriber opted out of sms' }]);

    await prefer('bob', [
      { channel: '*', enabled: false },
      { channel: 'sms', topic: 'security', enabled: true },
    ]);
    expect(
      (await api.post('/v1/send', { channel: 'sms', subscriber_id: 'bob', body: 'x' })).body.skipped[0].reason,
    ).toBe('subscriber opted out of all notifications');
    expect(
      (await api.post('/v1/send', { channel: 'sms', subscriber_id: 'bob', body: 'x', topic: 'security' })).body.job_ids,
    ).toHaveLength(1);
    await prefer('cid', [{ channel: 'sms', topic: 'tips', enabled: false }]);
    expect(
      (await api.post('/v1/send', { channel: 'sms', subscriber_id: 'cid', body: 'x', topic: 'tips' })).body.skipped[0]
        .reason,
    ).toBe("subscriber opted out of topic 'tips' on sms");
    expect(
      (await api.post('/v1/send', { channel: 'sms', subscriber_id: 'cid', body: 'x', topic: 'news' })).body.job_ids,
    ).toHaveLength(1);
  });

  it('transactional bypasses preferences, never suppressions', async () => {
    await prefer('ann', [{ channel: '*', enabled: false }]);
    const tx = await api.post('/v1/send', {
      channel: 'sms',
      subscriber_id: 'ann',
      body: 'code 123',
      transactional: true,
    });
    expect(tx.body.job_ids).toHaveLength(1);
    await t.worker.drainOnce();
    expect((await job(tx.body.job_ids[0])).status).toBe('sent');
    expect(sms.messages).toHaveLength(1);
    await api.post('/v1/suppressions', { channel: 'sms', address: '+33611111111' });
    const blocked = await api.post('/v1/send', {
      channel: 'sms',
      subscriber_id: 'ann',
      body: 'code 456',
      transactional: true,
    });
    expect(blocked.body.job_ids).toEqual([]);
    expect(blocked.body.skipped[0].reason).toMatch(/suppressed on sms/);
  });

  it('a template id is a preference scope', async () => {
    await api.post('/v1/templates', { id: 'weekly_digest', channel: 'sms', body: 'digest' });
    await prefer('ann', [{ channel: 'sms', workflow_id: 'weekly_digest', enabled: false }]);
    const res = await api.post('/v1/send', { channel: 'sms', subscriber_id: 'ann', template: 'weekly_digest' });
    expect(res.body.skipped).toEqual([{ channel: 'sms', reason: "subscriber opted out of 'weekly_digest' on sms" }]);
  });

  it('/v1/batch counts opted-out subscribers in jobs_skipped', async () => {
    await prefer('bob', [{ channel: 'sms', topic: 'news', enabled: false }]);
    const res = await api.post('/v1/batch', {
      channel: 'sms',
      subscribers: ['ann', 'bob', 'cid'],
      body: 'news',
      topic: 'news',
    });
    expect(res.body).toMatchObject({ jobs_created: 2, jobs_skipped: 1 });
    const recipients = await t.db.sql(`SELECT subscriber_id FROM jobs ORDER BY subscriber_id`);
    expect(recipients.map((r) => r.subscriber_id)).toEqual(['ann', 'cid']);
  });

  it('/v1/batch on two channels applies an opt-out to its own channel only, and a workflow opt-out to its template', async () => {
    await prefer('bob', [{ channel: 'sms', enabled: false }]);
    await prefer('cid', [{ channel: '*', workflow_id: 'welcome', enabled: false }]);
    for (const channel of ['sms', 'email'])
      expect(
        (await api.post('/v1/templates', { id: 'welcome', channel, subject: 'Hi', body: 'hi' })).status,
      ).toBeLessThan(300);
    const res = await api.post('/v1/batch', {
      channels: ['email', 'sms'],
      subscribers: ['ann', 'bob', 'cid'],
      template: 'welcome',
    });
    expect(res.body).toMatchObject({ jobs_created: 3, jobs_skipped: 3 });
    const rows = await t.db.sql(`SELECT subscriber_id || '/' || channel AS job FROM jobs ORDER BY 1`);
    expect(rows.map((r) => r.job)).toEqual(['ann/email', 'ann/sms', 'bob/email']);
  });

  it('the worker checks again: an opt-out after enqueue closes the job unsent (sent, provider skipped); transactional goes', async () => {
    const normal = await api.post('/v1/send', { channel: 'sms', subscriber_id: 'ann', body: 'promo', topic: 'promo' });
    const tx = await api.post('/v1/send', {
      channel: 'sms',
      subscriber_id: 'ann',
      body: 'receipt',
      topic: 'promo',
      transactional: true,
    });
    await prefer('ann', [{ channel: '*', topic: 'promo', enabled: false }]);
    await t.worker.drainOnce();
    const skipped = await job(normal.body.job_ids[0]);
    expect(skipped).toMatchObject({
      status: 'sent',
      provider: 'skipped',
      error: "subscriber opted out of topic 'promo'",
    });
    expect((await job(tx.body.job_ids[0])).provider).toBe('recording');
    expect(sms.messages.map((m) => m.body)).toEqual(['receipt']);
  });

  it('when the batch prefetch of preferences fails the worker reads each subscriber, and defers what it cannot read', async () => {
    const repo = t.notifyd.app.get(PreferencesRepository);
    const a = await api.post('/v1/send', { channel: 'sms', subscriber_id: 'ann', body: 'a' });
    const b = await api.post('/v1/send', { channel: 'sms', subscriber_id: 'bob', body: 'b' });
    await prefer('bob', [{ channel: 'sms', enabled: false }]);
    const real = repo.forSubscribers.bind(repo);
    const calls: string[][] = [];
    repo.forSubscribers = async (keys) => {
      calls.push(keys.map((k) => k.subscriberId));
      if (calls.length === 1) throw new Error('connection reset');
      if (keys.some((k) => k.subscriberId === 'ann')) throw new Error('still failing');
      return real(keys);
    };
    try {
      await t.worker.drainOnce();
    } finally {
      repo.forSubscribers = real;
    }
    expect(calls[0].sort()).toEqual(['ann', 'bob']);
    expect(
      calls
        .slice(1)
        .map((c) => c.join())
        .sort(),
    ).toEqual(['ann', 'bob']);
    expect(await job(b.body.job_ids[0])).toMatchObject({
      status: 'sent',
      provider: 'skipped',
      error: 'subscriber opted out of sms',
    });
    expect(await job(a.body.job_ids[0])).toMatchObject({
      status: 'pending',
      attempts: 0,
      error: 'preferences unreadable; retrying',
    });
    expect(sms.messages).toEqual([]);
  });

  it('a change emits subscriber.preference_changed to subscribed webhook endpoints', async () => {
    const hook = await api.post('/v1/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['subscriber.preference_changed'],
    });
    expect(hook.status).toBe(201);
    await prefer('cid', [{ channel: 'email', topic: 'tips', enabled: false }]);
    const rows = await t.db.sql(`SELECT event_type, payload FROM webhook_deliveries WHERE endpoint_id = $1`, [
      hook.body.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].event_type).toBe('subscriber.preference_changed');
    expect(JSON.stringify(rows[0].payload)).toContain('"subscriber_id":"cid"');
    expect(JSON.stringify(rows[0].payload)).toContain('"topic":"tips"');
  });

  it('deleting a subscriber deletes their preferences', async () => {
    await api.post('/v1/subscribers', { id: 'temp', phone: '+33644444444' });
    await prefer('temp', [{ channel: '*', enabled: false }]);
    expect((await t.http.delete('/v1/subscribers/temp').set('X-Api-Key', project.key)).status).toBe(200);
    expect(await t.db.sql(`SELECT 1 FROM subscriber_preferences WHERE subscriber_id = 'temp'`)).toEqual([]);
  });
});

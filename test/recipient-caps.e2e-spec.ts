import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('per-recipient caps', () => {
  let t: TestApp;
  let replica: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    // Small claims, so that two workers share one subscriber's jobs in the race test.
    t = await startTestApp({ env: { WORKER_BATCH_SIZE: '2' } });
    replica = await startTestApp({ database: t.db, env: { WORKER_BATCH_SIZE: '2' } });
  });
  beforeEach(async () => {
    project = await t.createProject();
    for (const id of ['u1', 'u2']) {
      await t.http
        .post('/v1/subscribers')
        .set('X-Api-Key', project.key)
        .send({ id, email: `${id}@example.com`, phone: '+33612345678' })
        .expect(200);
    }
  });
  afterAll(async () => {
    await replica.close();
    await t.close();
  });

  const putCap = (body: Record<string, unknown>) => t.http.put('/v1/caps').set('X-Api-Key', project.key).send(body);
  const send = (body: Record<string, unknown> = {}) =>
    t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ subscriber_id: 'u1', channels: ['email'], body: 'hi', ...body });
  const jobs = () =>
    t.db.sql(
      `SELECT id, channel, subscriber_id, status, provider, error FROM jobs WHERE project_id = $1 ORDER BY created_at, id`,
      [project.id],
    );
  const drain = async (app: TestApp = t) => {
    while ((await app.worker.drainOnce()) > 0);
  };

  it('manages caps through the API, validating every field', async () => {
    const created = await putCap({ channel: 'email', max_messages: 3, window_seconds: 3600 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      success: true,
      created: true,
      cap: { channel: 'email', topic: '*', max_messages: 3, window_seconds: 3600 },
    });
    const replaced = await putCap({ channel: 'email', max_messages: 5, window_seconds: 7200 });
    expect(replaced.body).toMatchObject({
      created: false,
      cap: { id: created.body.cap.id, max_messages: 5, window_seconds: 7200 },
    });
    const list = await t.http.get('/v1/caps').set('X-Api-Key', project.key);
    expect(list.body.data).toHaveLength(1);

    for (const [body, message] of [
      [{ channel: 'fax', max_messages: 1, window_seconds: 60 }, /channel must be "\*" or one of/],
      [{ max_messages: 0, window_seconds: 60 }, /max_messages must not be less than 1/],
      [{ max_messages: 1, window_seconds: 10 }, /window_seconds must be at least 60/],
      [{ max_messages: 1, window_seconds: 60, topic: 'Promo!' }, /topic must be "\*" or 1–64 characters/],
      [{ max_messages: 1.5, window_seconds: 60 }, /max_messages must be a whole number/],
    ] as const) {
      const res = await putCap(body);
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(message);
    }
    expect((await t.http.delete('/v1/caps/not-a-uuid').set('X-Api-Key', project.key)).status).toBe(400);
    expect(
      (await t.http.delete('/v1/caps/0d9c2f5e-8a4b-4c1d-9e2f-3a4b5c6d7e8f').set('X-Api-Key', project.key)).status,
    ).toBe(404);
    const other = await t.createProject();
    expect((await t.http.delete(`/v1/caps/${created.body.cap.id}`).set('X-Api-Key', other.key)).status).toBe(404);
    expect((await t.http.delete(`/v1/caps/${created.body.cap.id}`).set('X-Api-Key', project.key)).body).toEqual({
      success: true,
      id: created.body.cap.id,
    });
    expect((await t.http.get('/v1/caps').set('X-Api-Key', project.key)).body).toEqual({ data: [] });
  });

  it('the worker lets N through per window and skips the rest with the reason; enqueue then refuses the channel', async () => {
    // Queued before the cap exists, so that only the worker's check can stop them.
    for (let i = 0; i < 5; i++) expect((await send()).body.job_ids).toHaveLength(1);
    await putCap({ channel: 'email', max_messages: 2, window_seconds: 3600 });
    const sms = await send({ channels: ['sms'] }); // another channel: not capped
    await drain();
    const rows = await jobs();
    const email = rows.filter((r) => r.channel === 'email');
    expect(email.filter((r) => r.provider === 'log')).toHaveLength(2);
    const skipped = email.filter((r) => r.provider === 'skipped');
    expect(skipped).toHaveLength(3);
    for (const r of skipped) {
      expect(r.status).toBe('sent');
      expect(r.error).toMatch(/^recipient cap reached: at most 2 per 1 h \(email; cap [0-9a-f-]{36}\); not sent$/);
    }
    expect(rows.find((r) => r.id === sms.body.job_ids[0])).toMatchObject({ status: 'sent', provider: 'log' });
    const [{ n }] = await t.db.sql(`SELECT count(*)::int AS n FROM recipient_cap_sends WHERE project_id = $1`, [
      project.id,
    ]);
    expect(n).toBe(2);

    // At the cap: /send skips the channel at once; other subscribers are not affected.
    const refused = await send({ channels: ['email', 'sms'] });
    expect(refused.body.channels).toEqual(['sms']);
    expect(refused.body.skipped).toEqual([
      { channel: 'email', reason: expect.stringMatching(/^recipient cap reached: at most 2 per 1 h/) },
    ]);
    expect((await send({ subscriber_id: 'u2' })).body.job_ids).toHaveLength(1);

    // Once the sends leave the window, the subscriber can be reached again.
    await t.db.sql(`UPDATE recipient_cap_sends SET sent_at = now() - interval '61 minutes' WHERE project_id = $1`, [
      project.id,
    ]);
    expect((await send()).body.channels).toEqual(['email']);
  });

  it('batch counts subscribers at a cap as skipped; an all-channel cap counts every channel', async () => {
    await putCap({ max_messages: 1, window_seconds: 86_400 });
    await send();
    await drain();
    const res = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email', 'sms'], subscribers: ['u1', 'u2'], body: 'sale' });
    // u1: both channels over the cap; u2: email fits, then sms is over the same all-channel cap.
    expect(res.body).toMatchObject({ jobs_created: 1, jobs_skipped: 3 });
    const created = (await jobs()).filter((r) => r.subscriber_id === 'u2');
    expect(created.map((r) => r.channel)).toEqual(['email']);
  });

  it('two workers racing over one subscriber’s jobs send exactly N', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await send({ body: `m${i}` })).body.job_ids[0]);
    await putCap({ channel: 'email', max_messages: 3, window_seconds: 3600 }); // after: enqueue would refuse 9
    await Promise.all([drain(t), drain(replica)]);
    const rows = (await jobs()).filter((r) => ids.includes(r.id));
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    expect(rows.filter((r) => r.provider === 'log')).toHaveLength(3);
    expect(rows.filter((r) => r.provider === 'skipped')).toHaveLength(9);
  });

  describe('at enqueue, jobs accepted but not yet sent count too', () => {
    it('10 concurrent sends to a subscriber capped at 3: exactly 3 accepted, 7 refused with the reason, 3 sent', async () => {
      await putCap({ channel: 'email', max_messages: 3, window_seconds: 3600 });
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send({ body: `m${i}` })));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      const accepted = answers.filter((a) => a.body.job_ids.length === 1);
      const refused = answers.filter((a) => a.body.job_ids.length === 0);
      expect(accepted).toHaveLength(3);
      expect(refused).toHaveLength(7);
      for (const r of refused) {
        expect(r.body.channels).toEqual([]);
        expect(r.body.skipped).toEqual([
          {
            channel: 'email',
            reason: expect.stringMatching(
              /^recipient cap reached: at most 3 per 1 h \(email; cap [0-9a-f-]{36}\); not sent$/,
            ),
          },
        ]);
      }
      await Promise.all([drain(t), drain(replica)]);
      const rows = await jobs();
      expect(rows).toHaveLength(3);
      expect(rows.every((r) => r.status === 'sent' && r.provider === 'log')).toBe(true);
      expect(rows.map((r) => r.id).sort()).toEqual(accepted.map((a) => a.body.job_ids[0]).sort());
    });

    it('holds count on their channel and topic only, other subscribers are not affected, and a sent or cancelled job stops holding', async () => {
      await putCap({ channel: 'email', topic: 'promo', max_messages: 1, window_seconds: 3600 });
      const first = await send({ topic: 'promo' });
      expect(first.body.channels).toEqual(['email']);
      expect((await send({ topic: 'promo', channels: ['email', 'sms'] })).body).toMatchObject({
        channels: ['sms'],
        skipped: [{ channel: 'email' }],
      });
      expect((await send({ topic: 'news' })).body.channels).toEqual(['email']);
      expect((await send({ topic: 'promo', subscriber_id: 'u2' })).body.channels).toEqual(['email']);

      // Cancelled: the slot is free again.
      await t.http.delete(`/v1/jobs/${first.body.job_ids[0]}`).set('X-Api-Key', project.key).expect(200);
      const second = await send({ topic: 'promo' });
      expect(second.body.channels).toEqual(['email']);
      // Sent: counted once, by the ledger (not twice, ledger and hold).
      await drain();
      expect((await t.db.sql(`SELECT status FROM jobs WHERE id = $1`, [second.body.job_ids[0]]))[0].status).toBe(
        'sent',
      );
      await t.db.sql(`UPDATE recipient_cap_sends SET sent_at = now() - interval '61 minutes' WHERE project_id = $1`, [
        project.id,
      ]);
      expect((await send({ topic: 'promo' })).body.channels).toEqual(['email']);
    });

    it('a retried request with its idempotency key finds its own job instead of being refused because of it', async () => {
      await putCap({ channel: 'email', max_messages: 1, window_seconds: 3600 });
      const first = await send({ idempotency_key: 'order-1' });
      const again = await send({ idempotency_key: 'order-1' });
      expect(again.body).toMatchObject({ job_ids: first.body.job_ids, deduplicated: true, skipped: [] });
      expect((await send({ idempotency_key: 'order-2' })).body).toMatchObject({
        job_ids: [],
        skipped: [{ channel: 'email' }],
      });
    });

    it('a job scheduled later holds its slot around its own time, not now', async () => {
      await putCap({ channel: 'email', max_messages: 1, window_seconds: 3600 });
      const later = new Date(Date.now() + 3 * 3600_000).toISOString();
      expect((await send({ scheduled_at: later })).body.channels).toEqual(['email']);
      expect((await send()).body.channels).toEqual(['email']); // now: 3 h away from the held slot
      expect((await send({ scheduled_at: new Date(Date.now() + 3.5 * 3600_000).toISOString() })).body.channels).toEqual(
        [],
      );
    });

    it('batch sees the jobs /send accepted', async () => {
      await putCap({ channel: 'email', max_messages: 1, window_seconds: 3600 });
      await send();
      const res = await t.http
        .post('/v1/batch')
        .set('X-Api-Key', project.key)
        .send({ channels: ['email'], subscribers: ['u1', 'u2'], body: 'sale' });
      expect(res.body).toMatchObject({ jobs_created: 1, jobs_skipped: 1 });
    });
  });
});

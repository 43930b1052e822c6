import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('POST /v1/send and the job endpoints', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    // Email and SMS on the log provider; WhatsApp, push and chat are not configured.
    t = await startTestApp();
    key = (await t.createProject('shop')).key;
    otherKey = (await t.createProject('rival')).key;
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', key)
      .send({ id: 'jane', email: 'jane@example.com' })
      .expect(200);
  });
  afterAll(() => t.close());

  const send = (body: Record<string, unknown>, k = key) => t.http.post('/v1/send').set('X-Api-Key', k).send(body);
  const jobRow = async (id: string) => (await t.db.sql(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];

  it('queues one job per channel, addressed from the subscriber, and reports what it skipped', async () => {
    const res = await send({
      channels: ['email', 'sms', 'in_app'],
      subscriber_id: 'jane',
      subject: 'Hi',
      body: 'Hello',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, channels: ['email', 'in_app'], topic: null, deduplicated: false });
    expect(res.body.skipped).toEqual([{ channel: 'sms', reason: 'subscriber has no phone for sms' }]);
    expect(res.body.job_ids).toHaveLength(2);
    const email = await jobRow(res.body.job_ids[0]);
    expect(email).toMatchObject({
      channel: 'email',
      recipient: 'jane@example.com',
      subscriber_id: 'jane',
      status: 'pending',
      priority: 50,
    });
    expect(email.payload).toMatchObject({ subject: 'Hi', body: 'Hello', marketing: false });
    expect((await jobRow(res.body.job_ids[1])).recipient).toBe('jane');
  });

  it('defaults to in-app, accepts notifyd’s channel string and aliases', async () => {
    expect((await send({ subscriber_id: 'jane', body: 'x' })).body.channels).toEqual(['in_app']);
    expect((await send({ channel: 'email,inapp', subscriber_id: 'jane', body: 'x' })).body.channels).toEqual([
      'email',
      'in_app',
    ]);
    expect((await send({ channels: ['InApp'], to: 'jane', body: 'x' })).body.channels).toEqual(['in_app']);
  });

  it('refuses at the door what could only fail later: an unknown subscriber, a bad address, in-app to an address', async () => {
    // In-app delivers to an existing subscriber's inbox: an unknown one is a 422, not a job that fails at the worker.
    const ghost = await send({ channels: ['email', 'in_app'], subscriber_id: 'ghost', body: 'x' });
    expect(ghost.status).toBe(422);
    expect(ghost.body).toMatchObject({ error: 'unknown_subscriber', field: 'subscriber_id' });
    expect(ghost.body.message).toContain("unknown subscriber 'ghost'");
    expect(ghost.body.message).toContain('POST /v1/subscribers');
    // No channel: in-app, addressed by subscriber id; an email address is not one.
    const noChannel = await send({ to: 'a@example.com', body: 'x' });
    expect(noChannel.status).toBe(422);
    expect(noChannel.body).toMatchObject({ error: 'unknown_subscriber', field: 'to' });
    // Address syntax per channel, on `to`: named, with the fix.
    const badEmail = await send({ channel: 'email', to: 'not-an-email', body: 'x' });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body).toMatchObject({ error: 'invalid_recipient', field: 'to' });
    expect(badEmail.body.message).toContain('must be an email address');
    const badPhone = await send({ channels: ['email', 'sms'], to: 'race@example.com', body: 'x' });
    expect(badPhone.status).toBe(422);
    expect(badPhone.body.message).toContain('sms');
    expect(badPhone.body.message).toContain('E.164');
    // A phone is stored in E.164 whatever its spacing.
    const spaced = await send({ channel: 'sms', to: '+33 6 12 34 56 78', body: 'x' });
    expect(spaced.status).toBe(200);
    expect((await jobRow(spaced.body.job_ids[0])).recipient).toBe('+33612345678');
    // A subscriber with no address on any requested channel: 422 naming the field to fill.
    const noPhone = await send({ channel: 'sms', subscriber_id: 'jane', body: 'x' });
    expect(noPhone.status).toBe(422);
    expect(noPhone.body).toMatchObject({ error: 'no_address', field: 'subscriber_id' });
    expect(noPhone.body.message).toContain('subscriber has no phone for sms');
    const rows = await t.db.sql(
      `SELECT count(*)::int AS n FROM jobs WHERE project_id = 'shop' AND (recipient IN ('ghost', 'a@example.com', 'not-an-email') OR subscriber_id = 'ghost')`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('422 channel_not_configured when nothing can be queued because a channel has no provider', async () => {
    const res = await send({ channels: ['whatsapp', 'push'], to: '+33612345678', body: 'x' });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('channel_not_configured');
    expect(res.body.message).toMatch(/set WHATSAPP_PROVIDER/);
    expect(res.body.skipped).toEqual([
      { channel: 'whatsapp', reason: 'whatsapp connector not configured: set WHATSAPP_PROVIDER' },
      { channel: 'push', reason: 'push connector not configured: set PUSH_PROVIDER' },
    ]);
    // With a deliverable channel alongside, the refusal is reported and the rest is queued.
    const mixed = await send({ channels: ['whatsapp', 'sms'], to: '+33612345678', body: 'x' });
    expect(mixed.status).toBe(200);
    expect(mixed.body.channels).toEqual(['sms']);
  });

  it('422 when nobody is addressed', async () => {
    const res = await send({ channels: ['email'], body: 'x' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'missing_recipient' });
  });

  it('priorities: names, numbers, campaign tags make bulk and marketing', async () => {
    const ids = async (body: Record<string, unknown>) =>
      (await send({ channels: ['email'], to: 'a@example.com', body: 'x', ...body })).body.job_ids[0];
    expect((await jobRow(await ids({ priority: 'critical' }))).priority).toBe(10);
    expect((await jobRow(await ids({ priority: 42 }))).priority).toBe(42);
    expect((await jobRow(await ids({ priority: '7' }))).priority).toBe(7);
    const campaign = await jobRow(await ids({ tags: [{ name: 'category', value: 'newsletter' }] }));
    expect(campaign.priority).toBe(80);
    expect(campaign.payload.marketing).toBe(true);
    const explicit = await jobRow(await ids({ tags: [{ name: 'category', value: 'campaign' }], priority: 'high' }));
    expect(explicit.priority).toBe(30);
    expect(explicit.payload.marketing).toBe(true);
  });

  it('scheduled_at holds a job until it is due; /v1/schedule is the same route', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await t.http
      .post('/v1/schedule')
      .set('X-Api-Key', key)
      .send({ channels: ['email'], to: 'later@example.com', body: 'x', scheduled_at: at });
    expect(res.status).toBe(200);
    expect(res.body.scheduled_at).toBe(at);
    await t.worker.drainOnce();
    expect((await jobRow(res.body.job_ids[0])).status).toBe('pending');
  });

  it('keeps every email option in the job (cc, reply_to, headers, attachments)', async () => {
    const res = await send({
      channels: ['email'],
      to: 'jane@example.com',
      body: 'x',
      cc: ['Ops@Acme.example'],
      reply_to: 'support@acme.example',
      email_headers: { 'X-Campaign': 'w' },
      attachments: [
        { filename: 'a.txt', content: Buffer.from('hello').toString('base64'), content_type: 'text/plain' },
      ],
    });
    expect(res.status).toBe(200);
    const job = await t.http.get(`/v1/jobs/${res.body.job_ids[0]}`).set('X-Api-Key', key);
    expect(job.body.email_envelope).toEqual({
      to: ['jane@example.com'],
      cc: ['ops@acme.example'],
      reply_to: 'support@acme.example',
    });
    const row = await jobRow(res.body.job_ids[0]);
    expect(row.payload.email_headers).toEqual({ 'X-Campaign': 'w' });
    expect(row.payload.attachments[0]).toMatchObject({ filename: 'a.txt', content_type: 'text/plain' });
    // Email-only options without the email channel would be silently dropped: refused instead.
    const refused = await send({ channels: ['sms'], to: '+33612345678', body: 'x', cc: ['a@example.com'] });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/apply to email only/);
  });

  describe('idempotency', () => {
    it('a key held by a live or sent job returns that job; failed or cancelled frees it', async () => {
      const body = { channels: ['email'], to: 'idem@example.com', body: 'x', idempotency_key: 'order-1' };
      const first = await send(body);
      const again = await send(body);
      expect(again.body.job_ids).toEqual(first.body.job_ids);
      expect(again.body.deduplicated).toBe(true);
      const id = first.body.job_ids[0];
      await t.worker.drainOnce();
      expect((await jobRow(id)).status).toBe('sent');
      expect((await send(body)).body.job_ids).toEqual([id]);
      await t.db.sql(`UPDATE jobs SET status = 'failed' WHERE id = $1`, [id]);
      const fresh = await send(body);
      expect(fresh.body.job_ids[0]).not.toBe(id);
      expect(fresh.body.deduplicated).toBe(false);
      // Per project: the same key in another project is another job.
      expect((await send(body, otherKey)).body.job_ids[0]).not.toBe(fresh.body.job_ids[0]);
    });

    it('20 concurrent identical requests create exactly one job', async () => {
      const body = { channels: ['email', 'in_app'], subscriber_id: 'jane', body: 'x', idempotency_key: 'race-1' };
      const results = await Promise.all(Array.from({ length: 20 }, () => send(body)));
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
      const idSets = new Set(results.map((r) => r.body.job_ids.join(',')));
      expect(idSets.size).toBe(1);
      const rows = await t.db.sql(
        `SELECT channel FROM jobs WHERE project_id = 'shop' AND idempotency_key LIKE 'race-1-%'`,
      );
      expect(rows.map((r) => r.channel).sort()).toEqual(['email', 'in_app']);
      expect(results.filter((r) => !r.body.deduplicated)).toHaveLength(1);
    });
  });

  describe('jobs', () => {
    it('GET shows status and evidence; another project gets 404; a non-UUID is a 400', async () => {
      const id = (await send({ channels: ['email'], to: 'get@example.com', body: 'x' })).body.job_ids[0];
      await t.worker.drainOnce();
      const res = await t.http.get(`/v1/jobs/${id}`).set('X-Api-Key', key);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id,
        channel: 'email',
        status: 'sent',
        attempts: 1,
        provider: 'log',
        recipient: 'get@example.com',
      });
      expect(res.body.provider_message_id).toMatch(/^log_/);
      expect(res.body.sent_at).not.toBeNull();
      const foreign = await t.http.get(`/v1/jobs/${id}`).set('X-Api-Key', otherKey);
      expect(foreign.status).toBe(404);
      const missing = await t.http.get(`/v1/jobs/00000000-0000-4000-8000-000000000000`).set('X-Api-Key', otherKey);
      expect(foreign.body).toEqual({
        ...missing.body,
        message: missing.body.message.replace('00000000-0000-4000-8000-000000000000', id),
      });
      expect((await t.http.get('/v1/jobs/not-a-uuid').set('X-Api-Key', key)).status).toBe(400);
    });

    it('cancels a pending job, refuses a sent one, and retries a cancelled one', async () => {
      const at = new Date(Date.now() + 600_000).toISOString();
      const id = (await send({ channels: ['email'], to: 'c@example.com', body: 'x', scheduled_at: at })).body
        .job_ids[0];
      expect((await t.http.delete(`/v1/jobs/${id}`).set('X-Api-Key', otherKey)).status).toBe(404);
      expect((await t.http.delete(`/v1/jobs/${id}`).set('X-Api-Key', key)).body).toEqual({ success: true, id });
      expect((await jobRow(id)).status).toBe('cancelled');
      const again = await t.http.delete(`/v1/jobs/${id}`).set('X-Api-Key', key);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: 'not_cancellable', status: 'cancelled' });
      expect((await t.http.post(`/v1/jobs/${id}/retry`).set('X-Api-Key', otherKey)).status).toBe(404);
      const retried = await t.http.post(`/v1/jobs/${id}/retry`).set('X-Api-Key', key);
      expect(retried.status).toBe(200);
      expect(retried.body.job).toEqual({ id, project_id: 'shop', channel: 'email', status: 'retry' });
      await t.worker.drainOnce();
      expect(await jobRow(id)).toMatchObject({ status: 'sent', attempts: 1 });
      const notRetryable = await t.http.post(`/v1/jobs/${id}/retry`).set('X-Api-Key', key);
      expect(notRetryable.status).toBe(409);
      expect(notRetryable.body.error).toBe('not_retryable');
      // Audited as the project key's, with the caller's address like every project-key write.
      const audit = await t.db.sql(
        `SELECT actor, action, ip FROM audit_log WHERE resource = $1 AND action IN ('job.cancelled','job.retried') ORDER BY id`,
        [id],
      );
      expect(audit.map((a) => [a.actor, a.action])).toEqual([
        ['api_key', 'job.cancelled'],
        ['api_key', 'job.retried'],
      ]);
      for (const a of audit) expect(a.ip).toEqual(expect.any(String));
    });

    it('retrying a job whose idempotency key was reused is refused (it would send twice)', async () => {
      const body = { channels: ['email'], to: 'k@example.com', body: 'x', idempotency_key: 'reuse-1' };
      const id = (await send(body)).body.job_ids[0];
      await t.http.delete(`/v1/jobs/${id}`).set('X-Api-Key', key).expect(200);
      await send(body).expect(200);
      const res = await t.http.post(`/v1/jobs/${id}/retry`).set('X-Api-Key', key);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('idempotency_key_in_use');
    });
  });
});

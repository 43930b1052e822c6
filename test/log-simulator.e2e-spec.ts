import { WebhookDeliveryWorker } from '../src/webhooks/delivery/webhook-delivery.worker.js';
import { PacingService } from '../src/pacing/pacing.service.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import { jobRow, projectApi } from './helpers/project-api.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Issue 26: the log provider's test recipients answer as a real provider would, with the same
 * job outcomes, suppressions, evidence and outbound webhooks; a synchronous hard bounce ends the
 * job bounced (job.bounced) and every suppression notifyd creates emits suppression.created.
 */
describe('the log provider: test recipients and what was sent', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let sender: WebhookDeliveryWorker;
  let project: { id: string; key: string };

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    const base = await receiver.start();
    t = await startTestApp({
      env: { EMAIL_PROVIDER: 'log', OUTBOUND_ALLOW_LOOPBACK: 'true', WORKER_SEND_TIMEOUT_MS: '300' },
    });
    sender = t.notifyd.app.get(WebhookDeliveryWorker);
    project = await t.createProject();
    const hook = await api().post('/v1/webhooks', {
      url: `${base}/hook`,
      events: ['job.bounced', 'job.failed', 'job.complained', 'job.sent', 'suppression.created'],
    });
    expect(hook.status).toBe(201);
    await t.db.sql(
      `INSERT INTO subscribers (project_id, id, email, first_name) VALUES ($1, 'amelie', 'amelie@example.com', 'Amélie')`,
      [project.id],
    );
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  beforeEach(async () => {
    receiver.reset();
    await t.db.sql(`DELETE FROM jobs`);
    await t.db.sql(`DELETE FROM suppressions`);
    await t.db.sql(`DELETE FROM pacing_lanes`);
  });

  function api() {
    return projectApi(t, project.key);
  }
  const send = async (to: string, body: object = {}) => {
    const res = await api().post('/v1/send', { channel: 'email', to, subject: 'Hello', body: 'Plain text', ...body });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const events = async () => {
    await sender.drainOnce();
    return receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, any> });
  };

  it('bounce@: SMTP 550 5.1.1 in the answer → job bounced, job.bounced (not job.failed), a bounce suppression and suppression.created', async () => {
    const id = await send('bounce@simulator.notifyd.test');
    await t.worker.drainOnce();
    const row = await jobRow(t, id);
    expect(row).toMatchObject({
      status: 'bounced',
      provider: 'log',
      error: 'log simulator: SMTP 550 5.1.1 mailbox does not exist',
    });
    expect(row.bounced_at).not.toBeNull();
    const got = await events();
    expect(got.map((e) => e.type).sort()).toEqual(['job.bounced', 'suppression.created']);
    expect(got.find((e) => e.type === 'job.bounced')!.data).toMatchObject({
      job_id: id,
      status: 'bounced',
      bounce_type: 'Permanent',
      synchronous: true,
    });
    const created = got.find((e) => e.type === 'suppression.created')!.data;
    expect(created).toMatchObject({
      channel: 'email',
      scope: 'all',
      reason: 'bounce',
      source: 'worker',
      source_job_id: id,
    });
    // As for job events, the address itself is not in the event: masked, and readable by id.
    expect(JSON.stringify(created)).not.toContain('bounce@simulator');
    expect((await api().get(`/v1/suppressions/${created.id}`)).body.suppression).toMatchObject({
      address: 'bounce@simulator.notifyd.test',
      reason: 'bounce',
    });
    // The address is now suppressed: a second send is refused at enqueue.
    const again = await api().post('/v1/send', { channel: 'email', to: 'bounce@simulator.notifyd.test', body: 'x' });
    expect(again.body.job_ids).toEqual([]);
  });

  it('complaint@: accepted, then a complaint as provider evidence → job.complained, complaint suppression, suppression.created, provider_events', async () => {
    const id = await send('complaint+1@simulator.notifyd.test');
    await t.worker.drainOnce();
    const row = await jobRow(t, id);
    expect(row.status).toBe('sent');
    expect(row.complained_at).not.toBeNull();
    const view = await api().get(`/v1/jobs/${id}`);
    expect(view.body.provider_events).toEqual([
      expect.objectContaining({ provider: 'log', kind: 'complained', type: 'simulated.complaint' }),
    ]);
    const got = await events();
    expect(got.map((e) => e.type).sort()).toEqual(['job.complained', 'job.sent', 'suppression.created']);
    expect(got.find((e) => e.type === 'suppression.created')!.data).toMatchObject({
      reason: 'complaint',
      source: 'log-webhook',
      source_job_id: id,
    });
  });

  it('transient@ retries with backoff; ratelimit@ pauses the lane and gives the attempt back; slow@ times out (transient)', async () => {
    const transient = await send('transient@simulator.notifyd.test');
    await t.worker.drainOnce();
    expect(await jobRow(t, transient)).toMatchObject({
      status: 'retry',
      attempts: 1,
      error: 'log simulator: HTTP 503 service unavailable',
    });
    // A slow recipient holds its whole provider call, as a slow provider would.
    const slow = await send('slow@simulator.notifyd.test');
    await t.worker.drainOnce();
    const timedOut = await jobRow(t, slow);
    expect(timedOut).toMatchObject({ status: 'retry', attempts: 1 });
    expect(timedOut.error).toMatch(/WORKER_SEND_TIMEOUT_MS/);

    const limited = await send('ratelimit@simulator.notifyd.test');
    await t.worker.drainOnce();
    const row = await jobRow(t, limited);
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
    expect(row.error).toMatch(/rate limited: log simulator: HTTP 429/);
    const pause = await t.notifyd.app.get(PacingService).pauseOf({ channel: 'email', provider: 'log' });
    expect(pause).toBeTruthy();
    expect((await events()).map((e) => e.type)).toEqual([]);
  });

  it('the job view shows what was rendered (kept with the job); as sent for plain content; redacted by the project setting', async () => {
    // The test before paused the lane (the 429 recipient, Retry-After 5 s): a fast run would find it still paused.
    await t.notifyd.app.get(PacingService).resume({ channel: 'email', provider: 'log' });
    const rendered = await api().post('/v1/send', {
      channel: 'email',
      subscriber_id: 'amelie',
      subject: 'Hi {{ first_name }}',
      body: 'Bonjour {{ subscriber.first_name }}',
      body_html: '<p>{{ first_name }}</p>',
    });
    const plain = await send('plain@example.com');
    await t.worker.drainOnce();
    const view = (await api().get(`/v1/jobs/${rendered.body.job_ids[0]}`)).body;
    expect(view.rendered).toMatchObject({
      status: 'kept',
      subject: 'Hi Amélie',
      body: 'Bonjour Amélie',
      body_html: '<p>Amélie</p>',
      truncated: false,
    });
    expect((await api().get(`/v1/jobs/${plain}`)).body.rendered).toMatchObject({
      status: 'as_sent',
      subject: 'Hello',
      body: 'Plain text',
      rendered_at: null,
    });
    // Operators see the subject only.
    const admin = await t.http.get(`/v1/admin/jobs/${rendered.body.job_ids[0]}`).set('X-Api-Key', ADMIN_KEY);
    expect(admin.body.rendered).toMatchObject({ status: 'kept', subject: 'Hi Amélie', body: null, body_html: null });

    // A project that keeps no content: nothing stored, nothing shown.
    const bad = await t.http
      .patch(`/v1/admin/projects/${project.id}`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ settings: { rendered_content: 'maybe' } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/settings\.rendered_content must be "keep".*or "redact"/);
    expect(
      (
        await t.http
          .patch(`/v1/admin/projects/${project.id}`)
          .set('X-Api-Key', ADMIN_KEY)
          .send({ settings: { rendered_content: 'redact' } })
      ).status,
    ).toBe(200);
    try {
      const secret = await api().post('/v1/send', {
        channel: 'email',
        subscriber_id: 'amelie',
        subject: 'Code for {{ first_name }}',
        body: 'Your code is 1234',
      });
      await t.worker.drainOnce();
      const id = secret.body.job_ids[0];
      expect((await jobRow(t, id)).status).toBe('sent');
      expect((await api().get(`/v1/jobs/${id}`)).body.rendered).toEqual({
        status: 'redacted',
        subject: null,
        body: null,
        body_html: null,
        truncated: false,
        rendered_at: null,
      });
      expect(await t.db.sql(`SELECT 1 FROM job_contents WHERE job_id = $1`, [id])).toEqual([]);
    } finally {
      await t.http
        .patch(`/v1/admin/projects/${project.id}`)
        .set('X-Api-Key', ADMIN_KEY)
        .send({ settings: { rendered_content: 'keep' } });
    }
    // Kept with the job: deleting the job (retention) deletes its content.
    await t.db.sql(`DELETE FROM jobs WHERE id = $1`, [rendered.body.job_ids[0]]);
    expect(await t.db.sql(`SELECT 1 FROM job_contents WHERE job_id = $1`, [rendered.body.job_ids[0]])).toEqual([]);
  });
});

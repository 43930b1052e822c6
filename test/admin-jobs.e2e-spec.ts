import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

describe('admin job routes', () => {
  let t: TestApp;
  let a: { id: string; key: string };
  let b: { id: string; key: string };
  beforeAll(async () => {
    t = await startTestApp();
    a = await t.createProject('alpha');
    b = await t.createProject('beta');
  });
  afterAll(() => t.close());

  const admin = { 'X-Api-Key': ADMIN_KEY };
  const send = (k: string, body: Record<string, unknown>) =>
    t.http.post('/v1/send').set('X-Api-Key', k).send(body).expect(200);

  it('searches across projects with filters, recipients masked', async () => {
    await send(a.key, { channels: ['email'], to: 'jane.doe@example.com', subject: 'Order', body: 'x' });
    await send(b.key, { channels: ['sms'], to: '+33612345678', body: 'x' });
    const all = await t.http.get('/v1/admin/jobs').set(admin);
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(2);
    const email = all.body.jobs.find((j: { channel: string }) => j.channel === 'email');
    expect(email).toMatchObject({
      project_id: 'alpha',
      recipient: 'j***@example.com',
      subject: 'Order',
      status: 'pending',
    });
    expect(all.body.jobs.find((j: { channel: string }) => j.channel === 'sms').recipient).toBe('***5678');
    const onlyBeta = await t.http.get('/v1/admin/jobs').set('X-Api-Key', READONLY_KEY).query({ project_id: 'beta' });
    expect(onlyBeta.body.jobs.map((j: { project_id: string }) => j.project_id)).toEqual(['beta']);
    const byRecipient = await t.http.get('/v1/admin/jobs').set(admin).query({ recipient: 'JANE.DOE@example.com' });
    expect(byRecipient.body.count).toBe(1);
    expect((await t.http.get('/v1/admin/jobs').set(admin).query({ status: 'sent' })).body.count).toBe(0);
    expect(
      (
        await t.http
          .get('/v1/admin/jobs')
          .set(admin)
          .query({ since: new Date(Date.now() + 60_000).toISOString() })
      ).body.count,
    ).toBe(0);
  });

  it('gets, cancels and retries any project’s job; the read-only key may only read', async () => {
    const id = (
      await send(a.key, {
        channels: ['email'],
        to: 'x@example.com',
        body: 'x',
        scheduled_at: new Date(Date.now() + 60_000).toISOString(),
      })
    ).body.job_ids[0];
    const got = await t.http.get(`/v1/admin/jobs/${id}`).set('X-Api-Key', READONLY_KEY);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, recipient: '**@example.com', email_envelope: { to: ['**@example.com'] } });
    expect((await t.http.post(`/v1/admin/jobs/${id}/cancel`).set('X-Api-Key', READONLY_KEY)).status).toBe(403);
    expect((await t.http.post(`/v1/admin/jobs/${id}/cancel`).set(admin)).body).toEqual({ success: true, id });
    expect((await t.http.post(`/v1/admin/jobs/${id}/cancel`).set(admin)).status).toBe(409);
    const retried = await t.http.post(`/v1/admin/jobs/${id}/retry`).set(admin);
    expect(retried.body.job).toMatchObject({ id, project_id: 'alpha', status: 'retry' });
    expect((await t.http.get('/v1/admin/jobs/7d5d2b36-7f7b-4a43-9a54-1d2c0f7c1e11').set(admin)).status).toBe(404);
    const audit = (await t.db.sql(`SELECT actor, action FROM audit_log WHERE resource = $1 ORDER BY id`, [id])).map(
      (r) => `${r.actor}:${r.action}`,
    );
    expect(audit).toEqual(['admin:job.cancelled', 'admin:job.retried']);
  });

  it('send-test queues a real message at high priority, tagged category=test, and refuses unknown projects', async () => {
    const res = await t.http
      .post('/v1/admin/send-test')
      .set(admin)
      .send({ project_id: 'alpha', channel: 'email', to: 'ops@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ project_id: 'alpha', channel: 'email', status: 'pending' });
    const [row] = await t.db.sql(`SELECT priority, payload FROM jobs WHERE id = $1`, [res.body.id]);
    expect(row.priority).toBe(30);
    expect(row.payload).toMatchObject({ subject: 'notifyd test', tags: [{ name: 'category', value: 'test' }] });
    await t.worker.drainOnce();
    expect((await t.db.sql(`SELECT status FROM jobs WHERE id = $1`, [res.body.id]))[0].status).toBe('sent');
    const unknown = await t.http
      .post('/v1/admin/send-test')
      .set(admin)
      .send({ project_id: 'ghost', channel: 'email', to: 'ops@example.com' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toBe('unknown_project');
    const unconfigured = await t.http
      .post('/v1/admin/send-test')
      .set(admin)
      .send({ project_id: 'alpha', channel: 'push', to: 'u1' });
    expect(unconfigured.status).toBe(422);
    expect(unconfigured.body.error).toBe('channel_not_configured');
  });
});

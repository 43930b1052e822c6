import { ProviderEvidenceService } from '../src/governance/provider-webhooks/provider-evidence.service.js';
import { RecordingEmailConnector, RecordingEmailModule } from './helpers/recording-email-connector.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** Issue 26: every /v1/batch call has an id, and GET /v1/batches/:id says how it is doing. */
describe('batch ids and GET /v1/batches/:id', () => {
  let t: TestApp;
  let key: string;
  let email: RecordingEmailConnector;
  beforeAll(async () => {
    t = await startTestApp({ env: { EMAIL_PROVIDER: 'recording-email' }, imports: [RecordingEmailModule] });
    email = t.notifyd.app.get(RecordingEmailConnector);
    key = (await t.createProject('camp')).key;
    // b1…b10 have an email and plan pro; b11 has none.
    await t.db.sql(`
      INSERT INTO subscribers (project_id, id, email, data)
      SELECT 'camp', 'b' || g, CASE WHEN g <= 10 THEN 'b' || g || '@example.com' END, '{"plan":"pro"}'::jsonb
        FROM generate_series(1, 11) g`);
  });
  afterAll(() => t.close());

  const ids = (n: number) => Array.from({ length: n }, (_, i) => `b${i + 1}`);
  const status = (id: string, apiKey = key) => t.http.get(`/v1/batches/${id}`).set('X-Api-Key', apiKey);

  it('answers a batch id; the status counts what was skipped by reason, then queued, sent, failed and bounced as the jobs move; tags reach every job', async () => {
    const tags = [{ name: 'campaign', value: 'winter-sale' }];
    const res = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', key)
      .send({ channels: ['email'], subscribers: [...ids(11), 'ghost'], subject: 'Sale', body: 'Hi', tags });
    expect(res.status).toBe(200);
    const batchId: string = res.body.batch_id;
    expect(batchId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.body).toMatchObject({ jobs_created: 10, skipped_by_reason: { no_address: 1, unknown_subscriber: 1 } });

    const queued = await status(batchId);
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({
      id: batchId,
      channels: ['email'],
      tags,
      priority: 80,
      subscribers: 12,
      jobs_created: 10,
      jobs_deduplicated: 0,
      skipped_by_reason: { no_address: 1, unknown_subscriber: 1 },
      jobs: { queued: 10, processing: 0, sent: 0, failed: 0, bounced: 0, cancelled: 0 },
    });
    expect(queued.body.completed_at).not.toBeNull();

    // Tags are stored on each job as a single send's are, and handed to the provider.
    const jobs: { id: string; tags: unknown; subscriber_id: string }[] = await t.db.sql(
      `SELECT id, payload->'tags' AS tags, subscriber_id FROM jobs WHERE batch_id = $1`,
      [batchId],
    );
    expect(jobs).toHaveLength(10);
    for (const job of jobs) expect(job.tags).toEqual(tags);

    // b2's mailbox does not exist (the provider refuses it); b3's is accepted, then bounces later.
    email.bounce.add('b2@example.com');
    await t.worker.drainOnce();
    expect(email.messages.filter((m) => m.subject === 'Sale')).toHaveLength(10);
    expect(email.messages.find((m) => m.recipient === 'b1@example.com')?.payload.tags).toEqual(tags);
    const b3 = jobs.find((j) => j.subscriber_id === 'b3')!;
    await t.notifyd.app.get(ProviderEvidenceService).apply([
      {
        provider: 'resend',
        eventId: 'evt_b3_bounce',
        kind: 'bounced',
        providerType: 'email.bounced',
        jobId: b3.id,
        providerMessageId: `em_${b3.id}`,
        recipients: ['b3@example.com'],
        occurredAt: new Date(),
        error: 'mailbox full for good',
        suppress: null,
        payload: {},
      },
    ]);
    const after = await status(batchId);
    // b2's synchronous hard bounce ends its job bounced (as b3's later bounce does), not failed.
    expect(after.body.jobs).toEqual({ queued: 0, processing: 0, sent: 8, failed: 0, bounced: 2, cancelled: 0 });
    // The counts are the jobs' own statuses, not a copy kept aside.
    const [direct] = await t.db.sql(
      `SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status = 'failed')::int AS failed, count(*) FILTER (WHERE status = 'bounced')::int AS bounced FROM jobs WHERE batch_id = $1`,
      [batchId],
    );
    expect(direct).toEqual({ sent: 8, failed: 0, bounced: 2 });
  });

  it('a segment batch adds up its pages in one batch; single sends carry no batch id', async () => {
    const res = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', key)
      .send({
        channels: ['email'],
        segment: { data: { plan: 'pro' } },
        body: 'Segment',
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
    expect(res.status).toBe(200);
    const body = (await status(res.body.batch_id)).body;
    // b2's address is suppressed since its mailbox bounced above.
    expect(body).toMatchObject({
      subscribers: 11,
      jobs_created: 9,
      skipped_by_reason: { no_address: 1, suppressed: 1 },
      segment: { data: { plan: 'pro' } },
      jobs: { queued: 9 },
    });
    expect(body.scheduled_at).not.toBeNull();

    const single = await t.http
      .post('/v1/send')
      .set('X-Api-Key', key)
      .send({ channels: ['email'], to: 'single@example.com', body: 'x' });
    const [row] = await t.db.sql(`SELECT batch_id FROM jobs WHERE id = $1`, [single.body.job_ids[0]]);
    expect(row.batch_id).toBeNull();
  });

  it('a call refused before it queues anything leaves no batch behind', async () => {
    const [before] = await t.db.sql(`SELECT count(*)::int AS n FROM batches`);
    const res = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', key)
      .send({ channels: ['email'], subscribers: ['b1'], template: 'no-such-template' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const [after] = await t.db.sql(`SELECT count(*)::int AS n FROM batches`);
    expect(after.n).toBe(before.n);
  });

  it('another project cannot read a batch (404); a malformed id is a 400 naming what an id looks like', async () => {
    const res = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', key)
      .send({
        channels: ['email'],
        subscribers: ['b1'],
        body: 'x',
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
    const other = (await t.createProject('other')).key;
    expect((await status(res.body.batch_id, other)).status).toBe(404);
    const bad = await status('not-a-batch');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('batch_id');
  });

  it('the retention purge removes a batch once none of its jobs is left', async () => {
    const res = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', key)
      .send({ channels: ['email'], subscribers: ['b11'], body: 'x' });
    expect(res.body.jobs_created).toBe(0);
    await t.db.sql(`UPDATE batches SET created_at = now() - interval '400 days' WHERE id = $1`, [res.body.batch_id]);
    await t.maintenance.purge();
    expect((await status(res.body.batch_id)).status).toBe(404);
  });
});

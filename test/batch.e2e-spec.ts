import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('POST /v1/batch', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp();
    key = (await t.createProject('camp')).key;
    // 300 subscribers: every third has no email, every fifth has a phone.
    await t.db.sql(`
      INSERT INTO subscribers (project_id, id, email, phone)
      SELECT 'camp', 'u' || g, CASE WHEN g % 3 = 0 THEN NULL ELSE 'u' || g || '@example.com' END,
             CASE WHEN g % 5 = 0 THEN '+3361000' || lpad(g::text, 4, '0') END
        FROM generate_series(1, 300) g`);
  });
  afterAll(() => t.close());

  const batch = (body: Record<string, unknown>) => t.http.post('/v1/batch').set('X-Api-Key', key).send(body);
  const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `u${from + i}`);

  it('queues one job per subscriber × channel in one statement, at bulk priority, with counts', async () => {
    const res = await batch({ channels: ['email', 'sms'], subscribers: [...ids(300), 'u1', 'nobody'], subject: 'Sale', body: 'Hi {{name}}' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      jobs_created: 200 + 60,
      jobs_deduplicated: 0,
      jobs_skipped: 0,
      jobs_without_address: 100 + 240 + 2,
      subscribers: 301,
      channels: ['email', 'sms'],
      topic: null,
    });
    const [row] = await t.db.sql(`SELECT count(*)::int AS n, min(priority) AS lo, max(priority) AS hi, bool_and((payload->>'marketing')::boolean) AS m FROM jobs`);
    expect(row).toEqual({ n: 260, lo: 80, hi: 80, m: true });
    const audit = await t.db.sql(`SELECT metadata FROM audit_log WHERE action = 'batch.queued'`);
    expect(audit[0].metadata).toMatchObject({ subscribers: 301, created: 260 });
  });

  it('replays safely with an idempotency key: nothing is created twice', async () => {
    const body = { channels: ['email'], subscribers: ids(30), body: 'x', idempotency_key: 'winter-2026' };
    const first = await batch(body);
    expect(first.body).toMatchObject({ jobs_created: 20, jobs_deduplicated: 0 });
    const second = await batch({ ...body, subscribers: ids(60) });
    expect(second.body).toMatchObject({ jobs_created: 20, jobs_deduplicated: 20 });
    const [{ n }] = await t.db.sql(`SELECT count(*)::int AS n FROM jobs WHERE idempotency_key LIKE 'winter-2026-%'`);
    expect(n).toBe(40);
  });

  it('refuses the whole batch when a channel cannot be delivered', async () => {
    const res = await batch({ channels: ['email', 'whatsapp'], subscribers: ids(3), body: 'x' });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('channel_not_configured');
    expect(res.body.message).toMatch(/WHATSAPP_PROVIDER/);
  });

  it('takes an explicit priority and a schedule', async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const res = await batch({ channels: ['email'], subscribers: ['u1'], body: 'x', priority: 'low', scheduled_at: at });
    expect(res.body.jobs_created).toBe(1);
    const [row] = await t.db.sql(`SELECT priority, scheduled_at, run_at FROM jobs ORDER BY created_at DESC LIMIT 1`);
    expect(row.priority).toBe(70);
    expect(new Date(row.scheduled_at).toISOString()).toBe(at);
    expect(new Date(row.run_at).toISOString()).toBe(at);
  });

  it('refuses fields that only /send accepts, an empty or oversized audience', async () => {
    expect((await batch({ subscribers: ['u1'], body: 'x', to: 'a@example.com' })).status).toBe(422);
    expect((await batch({ subscribers: [], body: 'x' })).status).toBe(422);
    const big = await batch({ subscribers: Array.from({ length: 10_001 }, (_, i) => `x${i}`), body: 'x' });
    expect(big.status).toBe(422);
    expect(big.body.message).toMatch(/at most 10000 ids per call/);
  });
});

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
    const res = await batch({
      channels: ['email', 'sms'],
      subscribers: [...ids(300), 'u1', 'nobody'],
      subject: 'Sale',
      body: 'Hi {{name}}',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      batch_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      jobs_created: 200 + 60,
      jobs_deduplicated: 0,
      jobs_skipped: 0,
      jobs_without_address: 100 + 240 + 2,
      subscribers: 301,
      channels: ['email', 'sms'],
      topic: null,
      skipped_by_reason: { no_address: 340, unknown_subscriber: 2 },
      skipped: expect.any(Array),
    });
    // The first 100 pairs not queued, each with its reason (all are counted above).
    expect(res.body.skipped).toHaveLength(100);
    expect(res.body.skipped[0]).toEqual({
      subscriber_id: 'u1',
      channel: 'sms',
      reason: 'subscriber has no phone for sms',
    });
    const [row] = await t.db.sql(
      `SELECT count(*)::int AS n, min(priority) AS lo, max(priority) AS hi, bool_and((payload->>'marketing')::boolean) AS m FROM jobs`,
    );
    expect(row).toEqual({ n: 260, lo: 80, hi: 80, m: true });
    const audit = await t.db.sql(`SELECT metadata FROM audit_log WHERE action = 'batch.queued'`);
    expect(audit[0].metadata).toMatchObject({ subscribers: 301, created: 260 });
  });

  it('gives jobs time-ordered ids (UUIDv7): version 7, the creation millisecond up front, a later batch sorting after an earlier one', async () => {
    // Why it matters: jobs queued together then sit side by side in jobs_pkey, so the claim and
    // finalise of a batch touch a few adjacent index pages instead of one random page per job.
    const before = Date.now();
    const first = await batch({
      channels: ['email'],
      subscribers: ids(20, 101),
      body: 'x',
      scheduled_at: new Date(before + 3_600_000).toISOString(),
    });
    await new Promise((r) => setTimeout(r, 5));
    const second = await batch({
      channels: ['email'],
      subscribers: ids(20, 201),
      body: 'x',
      scheduled_at: new Date(before + 3_600_000).toISOString(),
    });
    const after = Date.now();
    expect([first.body.jobs_created, second.body.jobs_created]).toEqual([13, 13]); // every third subscriber has no email
    const rows: { id: string; created_at: Date; sub: string }[] = await t.db.sql(
      `SELECT id, created_at, subscriber_id AS sub FROM jobs WHERE scheduled_at > now() + interval '30 minutes' AND subscriber_id = ANY($1)`,
      [[...ids(20, 101), ...ids(20, 201)]],
    );
    expect(rows).toHaveLength(26);
    for (const row of rows) {
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const millis = parseInt(row.id.replace(/-/g, '').slice(0, 12), 16);
      expect(millis).toBeGreaterThanOrEqual(before - 1_000);
      expect(millis).toBeLessThanOrEqual(after + 1_000);
      // Made by the api just before its insert, whose now() is created_at (a busy pool may wait between).
      expect(Math.abs(millis - row.created_at.getTime())).toBeLessThan(5_000);
    }
    const newestOfFirst = rows
      .filter((r) => Number(r.sub.slice(1)) < 201)
      .map((r) => r.id)
      .sort()
      .at(-1)!;
    const oldestOfSecond = rows
      .filter((r) => Number(r.sub.slice(1)) >= 201)
      .map((r) => r.id)
      .sort()[0];
    expect(newestOfFirst < oldestOfSecond).toBe(true);
  });

  it('a one-channel batch (the shared channel and send time sent once, not per row) keeps every subscriber with its own address and time', async () => {
    const at = new Date(Date.now() + 7_200_000);
    at.setMilliseconds(0);
    const res = await batch({ channels: ['sms'], subscribers: ids(50, 1), body: 'x', scheduled_at: at.toISOString() });
    expect(res.body).toMatchObject({ jobs_created: 10, jobs_without_address: 40 });
    const rows: { sub: string; recipient: string; channel: string; scheduled_at: Date; run_at: Date }[] =
      await t.db.sql(
        `SELECT subscriber_id AS sub, recipient, channel, scheduled_at, run_at FROM jobs WHERE channel = 'sms' AND scheduled_at = $1 ORDER BY subscriber_id`,
        [at],
      );
    expect(rows.map((r) => r.sub)).toEqual(['u10', 'u15', 'u20', 'u25', 'u30', 'u35', 'u40', 'u45', 'u5', 'u50']);
    for (const row of rows) {
      expect(row.recipient).toBe(`+3361000${row.sub.slice(1).padStart(4, '0')}`);
      expect([row.channel, row.scheduled_at.getTime(), row.run_at.getTime()]).toEqual([
        'sms',
        at.getTime(),
        at.getTime(),
      ]);
    }
  });

  describe('a large call (2 500 subscribers): every rule counted, all-or-nothing', () => {
    let big: string;
    beforeAll(async () => {
      big = (await t.createProject('bigcall')).key;
      // 2 500 subscribers: every 7th has no email; three suppressed addresses and three
      // subscribers opted out of email, spread over the list.
      await t.db.sql(`
        INSERT INTO subscribers (project_id, id, email)
        SELECT 'bigcall', 'b' || g, CASE WHEN g % 7 = 0 THEN NULL ELSE 'b' || g || '@example.com' END
          FROM generate_series(1, 2500) g`);
      await t.db.sql(`
        INSERT INTO suppressions (project_id, channel, address, reason, source)
        SELECT 'bigcall', 'email', 'b' || g || '@example.com', 'bounce', 'test' FROM unnest(ARRAY[10, 1010, 2010]) g`);
      await t.db.sql(`
        INSERT INTO subscriber_preferences (project_id, subscriber_id, channel, scope_kind, scope, enabled)
        SELECT 'bigcall', 'b' || g, 'email', 'all', '*', false FROM unnest(ARRAY[11, 1011, 2011]) g`);
    });
    const bigIds = Array.from({ length: 2500 }, (_, i) => `b${i + 1}`);
    const send = (body: Record<string, unknown>) => t.http.post('/v1/batch').set('X-Api-Key', big).send(body);

    it('counts every rule and queues each pair exactly once', async () => {
      const res = await send({
        channels: ['email'],
        subscribers: [...bigIds, 'b1', 'nobody'],
        body: 'x',
        idempotency_key: 'parts',
      });
      expect(res.status).toBe(200);
      const withoutEmail = Math.floor(2500 / 7) + 1; // the 7th, 14th … and 'nobody'
      expect(res.body).toMatchObject({
        jobs_created: 2500 - (withoutEmail - 1) - 6,
        jobs_skipped: 6,
        jobs_without_address: withoutEmail,
        jobs_deduplicated: 0,
        subscribers: 2501,
      });
      const [row] = await t.db.sql(
        `SELECT count(*)::int AS n, count(DISTINCT subscriber_id)::int AS subs,
                count(*) FILTER (WHERE subscriber_id IN ('b10','b1010','b2010','b11','b1011','b2011'))::int AS stopped
           FROM jobs WHERE project_id = 'bigcall'`,
      );
      expect(row).toEqual({ n: res.body.jobs_created, subs: res.body.jobs_created, stopped: 0 });
      // Replayed with the same key: every key is held.
      const again = await send({ channels: ['email'], subscribers: bigIds, body: 'x', idempotency_key: 'parts' });
      expect(again.body).toMatchObject({ jobs_created: 0, jobs_deduplicated: res.body.jobs_created });
    });

    it('is all-or-nothing: a failure on one row leaves no job of the call', async () => {
      // A real failure inside PostgreSQL on one row near the end (subscriber b2400).
      await t.db.sql(`
        CREATE FUNCTION refuse_b2400() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.subscriber_id = 'b2400' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
      await t.db.sql(`CREATE TRIGGER refuse_b2400 BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION refuse_b2400()`);
      try {
        const [{ n: before }] = await t.db.sql(`SELECT count(*)::int AS n FROM jobs WHERE project_id = 'bigcall'`);
        const res = await send({ channels: ['email'], subscribers: bigIds, body: 'y' });
        expect(res.status).toBe(500);
        const [{ n: after }] = await t.db.sql(`SELECT count(*)::int AS n FROM jobs WHERE project_id = 'bigcall'`);
        expect(after).toBe(before);
      } finally {
        await t.db.sql(`DROP TRIGGER refuse_b2400 ON jobs`);
        await t.db.sql(`DROP FUNCTION refuse_b2400()`);
      }
      // The same call without the failure goes through whole.
      const ok = await send({ channels: ['email'], subscribers: bigIds, body: 'y' });
      expect(ok.body.jobs_created).toBe(2500 - Math.floor(2500 / 7) - 6);
    });
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

  it('names the first bad id of the list, and queues nothing', async () => {
    const before = (await t.db.sql(`SELECT count(*)::int AS n FROM jobs`))[0].n;
    const notString = await batch({ subscribers: ['u1', 'u2', 42], body: 'x' });
    expect(notString.status).toBe(422);
    expect(notString.body.message).toBe('subscribers[2] must be a string (a subscriber id)');
    for (const bad of ['', ' u1', 'u1\r\nBcc: x', 'x'.repeat(256)]) {
      const res = await batch({ subscribers: ['u1', bad], body: 'x' });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(
        'subscribers[1] must be 1–255 printable characters without leading or trailing spaces',
      );
    }
    expect((await t.db.sql(`SELECT count(*)::int AS n FROM jobs`))[0].n).toBe(before);
  });
});

import { jest } from '@jest/globals';
import { SegmentsRepository } from '../src/governance/segments/segments.repository.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** 3 000 subscribers: locale fr/es/de by g % 3, an email unless g % 10 = 0, data.orders = g % 7, a plan on every fifth. */
const N = 3_000;

describe('segments', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  const preview = (segment: unknown) =>
    t.http
      .post('/v1/segments/preview')
      .set('X-Api-Key', project.key)
      .send(segment as object);
  const count = async (where: string) =>
    (await t.db.sql(`SELECT count(*)::int AS n FROM subscribers WHERE project_id = $1 AND ${where}`, [project.id]))[0]
      .n;

  beforeAll(async () => {
    t = await startTestApp({ env: { SEGMENT_PAGE_SIZE: '500' } });
    project = await t.createProject();
    await t.db.sql(
      `INSERT INTO subscribers (project_id, id, email, locale, data, created_at)
       SELECT $1, 's' || lpad(g::text, 5, '0'),
              CASE WHEN g % 10 = 0 THEN NULL ELSE 's' || g || '@example.com' END,
              (ARRAY['fr','es','de'])[g % 3 + 1],
              jsonb_build_object('orders', g % 7) || CASE WHEN g % 5 = 0 THEN '{"plan": "pro", "address": {"city": "Lyon"}}'::jsonb ELSE '{}'::jsonb END,
              '2026-01-01T00:00:00Z'::timestamptz + g * interval '1 minute'
         FROM generate_series(1, ${N}) g`,
      [project.id],
    );
  });
  afterAll(() => t.close());

  it('issue 26: the body {"data":{"plan":"pro"}} as a client sends it (raw JSON) previews the plan, never a 500; wrapped in "segment" it is a 400 saying how to unwrap', async () => {
    const raw = await t.http
      .post('/v1/segments/preview')
      .set('X-Api-Key', project.key)
      .set('Content-Type', 'application/json')
      .send('{"data":{"plan":"pro"}}');
    expect(raw.status).toBe(200);
    expect(raw.body.count).toBe(await count(`data->>'plan' = 'pro'`));
    expect(raw.body.count).toBeGreaterThan(0);
    const wrapped = await preview({ segment: { data: { plan: 'pro' } } });
    expect(wrapped.status).toBe(400);
    expect(wrapped.body).toMatchObject({
      error: 'invalid_segment',
      message: expect.stringContaining('not wrapped in {"segment"'),
    });
    // A form-encoded body (curl -d without a Content-Type) is refused as a segment with unknown keys, not a 500.
    const form = await t.http
      .post('/v1/segments/preview')
      .set('X-Api-Key', project.key)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('{"data":{"plan":"pro"}}');
    expect(form.status).toBe(400);
  });

  it('previews a count and a sample, matching the same filter written in SQL', async () => {
    const all = await preview({});
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(N);
    expect(all.body.sample).toEqual([
      's00001',
      's00002',
      's00003',
      's00004',
      's00005',
      's00006',
      's00007',
      's00008',
      's00009',
      's00010',
    ]);

    const cases: [unknown, string][] = [
      [{ locale: 'fr' }, `locale = 'fr'`],
      [{ locale: ['fr', 'es'], has_email: true }, `locale IN ('fr','es') AND email IS NOT NULL`],
      [{ has_email: false }, `email IS NULL`],
      [{ data: { plan: 'pro' } }, `data->>'plan' = 'pro'`],
      [{ where: [{ field: 'data.orders', op: 'gte', value: 5 }] }, `(data->>'orders')::int >= 5`],
      [{ where: [{ field: 'data.plan', op: 'neq', value: 'pro' }] }, `data->>'plan' IS NULL`],
      [{ where: [{ field: 'data.address.city', op: 'contains', value: 'YO' }] }, `data->'address'->>'city' = 'Lyon'`],
      [
        {
          where: [
            { field: 'data.plan', op: 'exists', value: true },
            { field: 'locale', op: 'not_in', value: ['de'] },
          ],
        },
        `data ? 'plan' AND locale <> 'de'`,
      ],
      [
        { created_after: '2026-01-01T10:00:00Z', created_before: '2026-01-02T00:00:00Z' },
        `created_at > '2026-01-01T10:00:00Z' AND created_at < '2026-01-02T00:00:00Z'`,
      ],
      [{ where: [{ field: 'email', op: 'contains', value: '%' }] }, `email LIKE '%\\%%'`],
    ];
    for (const [segment, sql] of cases) {
      const res = await preview(segment);
      expect({ segment, status: res.status, count: res.body.count }).toEqual({
        segment,
        status: 200,
        count: await count(sql),
      });
    }
  });

  it('rejects injection attempts with 400 before any SQL runs, and binds hostile values as plain data', async () => {
    for (const segment of [
      { where: [{ field: 'email) OR (1=1', op: 'eq', value: 'x' }] },
      { where: [{ field: "data.x'); DROP TABLE subscribers; --", op: 'exists', value: true }] },
      { where: [{ field: 'locale', op: 'eq; DELETE FROM jobs', value: 'fr' }] },
      { '1=1; DROP TABLE subscribers; --': true },
      { data: { "a' OR 'a'='a": 'x' } },
      { where: [{ field: 'created_at', op: 'gt', value: "2026-01-01' OR '1'='1" }] },
    ]) {
      const res = await preview(segment);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_segment');
      expect(res.body.message).toMatch(/segment/);
    }
    const hostile = await preview({
      locale: "fr' OR '1'='1",
      where: [{ field: 'email', op: 'eq', value: "x' OR 1=1; DROP TABLE subscribers; --" }],
    });
    expect(hostile.status).toBe(200);
    expect(hostile.body.count).toBe(0);
    expect(await count('TRUE')).toBe(N);
  });

  it('POST /v1/batch {segment} streams the segment in keyset pages and queues every match', async () => {
    const spy = jest.spyOn(t.notifyd.app.get(SegmentsRepository), 'page');
    const res = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], segment: { locale: ['fr', 'es'] }, body: 'sale', idempotency_key: 'seg-1' });
    expect(res.status).toBe(200);
    const matching = await count(`locale IN ('fr','es')`); // 2 000
    const withEmail = await count(`locale IN ('fr','es') AND email IS NOT NULL`);
    expect(res.body).toMatchObject({
      jobs_created: withEmail,
      jobs_without_address: matching - withEmail,
      subscribers: matching,
      channels: ['email'],
    });
    // 2 000 matches in pages of 500: four full pages, then one empty read that ends the stream.
    expect(spy.mock.calls.map((c) => c[3])).toEqual([500, 500, 500, 500, 500]);
    expect(spy.mock.calls.map((c) => c[2])).toEqual(['', ...(await pageEnds(matching))]);
    const [{ n, distinct }] = await t.db.sql(
      `SELECT count(*)::int AS n, count(DISTINCT subscriber_id)::int AS distinct FROM jobs WHERE project_id = $1`,
      [project.id],
    );
    expect({ n, distinct }).toEqual({ n: withEmail, distinct: withEmail });
    const audit = await t.db.sql(`SELECT metadata FROM audit_log WHERE project_id = $1 AND action = 'batch.queued'`, [
      project.id,
    ]);
    expect(audit).toHaveLength(1);
    expect(audit[0].metadata).toMatchObject({
      subscribers: matching,
      created: withEmail,
      segment: { locale: ['fr', 'es'] },
    });

    // Replayed with the same key: nothing is queued twice.
    const again = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], segment: { locale: ['fr', 'es'] }, body: 'sale', idempotency_key: 'seg-1' });
    expect(again.body).toMatchObject({ jobs_created: 0, jobs_deduplicated: withEmail });
    spy.mockRestore();
  });

  it('takes subscribers or a segment, not both and not neither; a bad segment is a 400', async () => {
    const both = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', project.key)
      .send({ subscribers: ['s00001'], segment: {}, body: 'x' });
    expect(both.status).toBe(422);
    expect(both.body.message).toMatch(/either subscribers .* or segment/);
    const neither = await t.http.post('/v1/batch').set('X-Api-Key', project.key).send({ body: 'x' });
    expect(neither.status).toBe(422);
    const bad = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', project.key)
      .send({ segment: { where: [{ field: 'password', op: 'eq', value: 1 }] }, body: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/'password' is not a segment field/);
  });

  it('applies every enqueue rule page by page: each match queued once, suppressions, opt-outs and caps skipped wherever they fall', async () => {
    // 1 200 subscribers in pages of 500 (500, 500, 200): rules hit subscribers in every page.
    const p = await t.createProject();
    const api = (method: 'post' | 'put', path: string, body: object) =>
      t.http[method](path).set('X-Api-Key', p.key).send(body);
    await t.db.sql(
      `INSERT INTO subscribers (project_id, id, email) SELECT $1, 'g' || lpad(g::text, 4, '0'), 'g' || g || '@example.com' FROM generate_series(1, 1200) g`,
      [p.id],
    );
    const suppressed = ['g0003', 'g0700', 'g1150'];
    for (const id of suppressed)
      expect(
        (await api('post', '/v1/suppressions', { email: `${id.replace(/^g0*/, 'g')}@example.com` })).body.created,
      ).toBe(true);
    const optedOut = ['g0010', 'g0600', 'g1199'];
    for (const id of optedOut)
      expect(
        (await api('put', `/v1/subscribers/${id}/preferences`, { preferences: [{ channel: 'email', enabled: false }] }))
          .status,
      ).toBe(200);
    // A cap of one email a day, already used by g0020 and g0800 (sent before the batch).
    expect((await api('put', '/v1/caps', { channel: 'email', max_messages: 1, window_seconds: 86_400 })).status).toBe(
      200,
    );
    const capped = ['g0020', 'g0800'];
    for (const id of capped)
      expect((await api('post', '/v1/send', { subscriber_id: id, channels: ['email'], body: 'earlier' })).status).toBe(
        200,
      );
    while ((await t.worker.drainOnce()) > 0);

    const spy = jest.spyOn(t.notifyd.app.get(SegmentsRepository), 'page');
    const res = await api('post', '/v1/batch', { channels: ['email'], segment: {}, body: 'paged' });
    expect(res.status).toBe(200);
    const excluded = [...suppressed, ...optedOut, ...capped];
    expect(res.body).toMatchObject({
      subscribers: 1200,
      jobs_created: 1200 - excluded.length,
      jobs_skipped: excluded.length,
      jobs_without_address: 0,
      jobs_deduplicated: 0,
    });
    // Bounded pages: never more than SEGMENT_PAGE_SIZE ids read at once.
    expect(spy.mock.calls.map((c) => c[3])).toEqual([500, 500, 500]);
    spy.mockRestore();

    const rows = await t.db.sql(
      `SELECT subscriber_id, count(*)::int AS n FROM jobs WHERE project_id = $1 AND payload->>'body' = 'paged' GROUP BY 1`,
      [p.id],
    );
    expect(rows.every((r) => r.n === 1)).toBe(true);
    const queued = new Set(rows.map((r) => r.subscriber_id));
    expect(queued.size).toBe(1200 - excluded.length);
    for (const id of excluded) expect(queued.has(id)).toBe(false);
  });

  /** The last id of each full page of the segment, in id order (where the next page starts). */
  async function pageEnds(total: number): Promise<string[]> {
    const rows = await t.db.sql(
      `SELECT id FROM subscribers WHERE project_id = $1 AND locale IN ('fr','es') ORDER BY id`,
      [project.id],
    );
    const ends: string[] = [];
    for (let i = 499; i < total; i += 500) ends.push(rows[i].id);
    return ends;
  }
});

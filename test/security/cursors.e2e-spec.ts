import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Keyset cursors carry a (created_at, id) pair that reaches SQL as `$n::timestamptz` and
 * `$n::uuid`. A cursor that JavaScript's Date.parse accepted but PostgreSQL does not (`"1"` is
 * the year 2001 to V8, `2026-02-30` rolls over) was a 500 on these four routes; every such
 * cursor is a 400 naming `cursor`, and a genuine next_cursor still pages.
 */
describe('security: keyset cursors that do not decode to a real key', () => {
  let t: TestApp;
  let key: string;
  let webhookId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: 'true' } });
    key = (await t.createProject()).key;
    const hook = await t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', key)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(hook.status).toBe(201);
    webhookId = hook.body.id;
  });
  afterAll(() => t.close());

  const cursor = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');
  const id = randomUUID();
  const badCursors: [string, string][] = [
    ['a bare number as the time', cursor(['1', id])],
    ['a day that does not exist', cursor(['2026-02-30 10:00:00+00', id])],
    ['an hour that does not exist', cursor(['2026-11-30T25:00:00Z', id])],
    ['an English date', cursor(['Tue Jan 01 2030', id])],
    ['a year PostgreSQL has not', cursor(['275760-09-13T00:00:00Z', id])],
    ['an offset out of range', cursor(['2026-11-30 10:00:00+99', id])],
    ['an id that is only dashes', cursor(['2026-11-30T10:00:00.000Z', '-'.repeat(36)])],
  ];
  const routes: [string, () => string][] = [
    ['GET /v1/suppressions', () => '/v1/suppressions'],
    ['GET /v1/webhooks/:id/deliveries', () => `/v1/webhooks/${webhookId}/deliveries`],
    ['GET /v1/inbox/:subscriber_id', () => '/v1/inbox/u1'],
    ['GET /v1/workflows/runs', () => '/v1/workflows/runs'],
  ];

  describe.each(routes)('%s', (_route, path) => {
    it.each(badCursors)('%s: 400 naming cursor', async (_what, value) => {
      const res = await t.http.get(path()).query({ cursor: value }).set('X-Api-Key', key);
      expect([res.status, res.body.error]).toEqual([400, 'invalid_cursor']);
      expect(res.body.message).toMatch(/^cursor /);
    });

    it('accepts a well-formed cursor (PostgreSQL text and ISO forms)', async () => {
      for (const time of ['2026-11-30 10:00:00.123456+00', '2026-11-30 10:00:00+05:30', '2026-11-30T10:00:00.000Z']) {
        const res = await t.http
          .get(path())
          .query({ cursor: cursor([time, id]) })
          .set('X-Api-Key', key);
        expect([time, res.status]).toEqual([time, 200]);
      }
    });
  });
});

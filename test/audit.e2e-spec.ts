import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

describe('GET /v1/admin/audit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.db.sql(`DELETE FROM audit_log`);
    // 30 entries: three actors, two actions, three targets, spread over three days.
    await t.db.sql(
      `INSERT INTO audit_log (project_id, actor, action, resource, metadata, ip, created_at)
       SELECT 'p' || (g % 3), (ARRAY['admin','mcp','system'])[1 + g % 3], (ARRAY['job.cancelled','lane.paused'])[1 + g % 2],
              't' || (g % 3), json_build_object('n', g)::jsonb, '203.0.113.' || g, now() - (30 - g) * interval '2 hours'
         FROM generate_series(1, 30) g`,
    );
  });
  afterAll(() => t?.close());

  const audit = (query = '', key = ADMIN_KEY) => t.http.get(`/v1/admin/audit${query}`).set('X-Api-Key', key);

  it('lists newest first and pages with a cursor without repeating or skipping', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await audit(`?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((i: { metadata: { n: number } }) => i.metadata.n));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i));
    const first = (await audit('?limit=1')).body.items[0];
    expect(first).toMatchObject({
      actor: 'admin',
      action: 'job.cancelled',
      resource: 't0',
      project_id: 'p0',
      ip: '203.0.113.30',
    });
    expect(first.created_at).toMatch(/Z$/);
  });

  it('filters by actor, action, target, project and time, combined', async () => {
    const ns = async (q: string) => (await audit(q)).body.items.map((i: { metadata: { n: number } }) => i.metadata.n);
    expect(await ns('?actor=mcp')).toEqual([28, 25, 22, 19, 16, 13, 10, 7, 4, 1]);
    expect(await ns('?action=lane.paused&actor=mcp')).toEqual([25, 19, 13, 7, 1]);
    expect(await ns('?target=t2&project_id=p2')).toEqual([29, 26, 23, 20, 17, 14, 11, 8, 5, 2]);
    const since = new Date(Date.now() - 9 * 3_600_000).toISOString();
    expect(await ns(`?since=${since}`)).toEqual([30, 29, 28, 27, 26]);
    const until = new Date(Date.now() - 51 * 3_600_000).toISOString();
    expect(await ns(`?until=${until}&action=job.cancelled`)).toEqual([4, 2]);
    expect(await ns('?actor=nobody')).toEqual([]);
  });

  it('refuses bad input with the field and the fix, and the read-only key', async () => {
    const limit = await audit('?limit=0');
    expect(limit.status).toBe(422);
    expect(limit.body.message).toContain('limit must be a whole number between 1 and 500');
    expect((await audit('?since=yesterday')).status).toBe(422);
    const cursor = await audit('?cursor=garbage');
    expect(cursor.status).toBe(400);
    expect(cursor.body.error).toBe('invalid_cursor');
    const range = await audit(`?since=2026-11-30T00:00:00Z&until=2026-11-29T00:00:00Z`);
    expect(range.status).toBe(400);
    expect((await audit('', READONLY_KEY)).status).toBe(403);
  });

  it("pages by notifyd 0.x's deprecated offset too, answering total, limit and offset; not with a cursor", async () => {
    const ns = (res: { body: { items: { metadata: { n: number } }[] } }) => res.body.items.map((i) => i.metadata.n);
    const page = await audit('?actor=mcp&limit=3&offset=3');
    expect(page.status).toBe(200);
    expect(ns(page)).toEqual([19, 16, 13]);
    expect(page.body).toMatchObject({ total: 10, limit: 3, offset: 3, next_cursor: expect.any(String) });
    expect(ns(await audit('?limit=100&offset=28'))).toEqual([2, 1]);
    expect((await audit('?limit=5')).body).not.toHaveProperty('total');
    const both = await audit(`?offset=3&cursor=${page.body.next_cursor}`);
    expect([both.status, both.body.message]).toEqual([
      422,
      expect.stringMatching(/offset and cursor cannot be combined/),
    ]);
    const bad = await audit('?offset=-1');
    expect([bad.status, [...new Set(bad.body.details)]]).toEqual([
      422,
      ['offset must be a whole number between 0 and 100000'],
    ]);
  });

  it('records state changes made through the API', async () => {
    await t.createProject('audited');
    const res = await audit('?action=project.created&target=audited');
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toMatchObject({ actor: 'admin', project_id: 'audited' });
  });
});

import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('subscribers', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    t = await startTestApp();
    key = (await t.createProject('subs')).key;
    otherKey = (await t.createProject('other')).key;
  });
  afterAll(() => t.close());

  const upsert = (body: Record<string, unknown>, k = key) =>
    t.http.post('/v1/subscribers').set('X-Api-Key', k).send(body);

  it('creates, then updates keeping absent fields and merging data', async () => {
    const created = await upsert({
      id: 'jane',
      email: 'jane@example.com',
      phone: '+33612345678',
      timezone: 'Europe/Paris',
      data: { plan: 'free', a: 1 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ success: true, id: 'jane', project_id: 'subs', created: true });
    const updated = await upsert({ id: 'jane', first_name: 'Jane', data: { plan: 'pro' } });
    expect(updated.body.created).toBe(false);
    const got = await t.http.get('/v1/subscribers/jane').set('X-Api-Key', key);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id: 'jane',
      email: 'jane@example.com',
      phone: '+33612345678',
      first_name: 'Jane',
      timezone: 'Europe/Paris',
      data: { plan: 'pro', a: 1 },
    });
  });

  it('clears a field with an explicit null', async () => {
    await upsert({ id: 'jane', phone: null }).expect(200);
    expect((await t.http.get('/v1/subscribers/jane').set('X-Api-Key', key)).body.phone).toBeNull();
  });

  it('validates addresses, time zones and locales with the fix in the message', async () => {
    const res = await upsert({
      id: 'bad',
      email: 'not-an-email',
      phone: '0612345678',
      timezone: 'Mars/Olympus',
      locale: 'french!',
    });
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^email must be an email address/),
        expect.stringMatching(/^phone must be an E\.164 number/),
        expect.stringMatching(/^timezone must be an IANA time zone/),
        expect.stringMatching(/^locale must be a language tag/),
      ]),
    );
  });

  it('refuses a NUL character (PostgreSQL cannot store one) with a 422 naming the field, not a 500', async () => {
    for (const [body, field] of [
      [{ id: 'nul', first_name: 'Ja\u0000ne' }, 'first_name'],
      [{ id: 'nul', data: { deep: [{ x: 'a\u0000' }] } }, 'data.deep[0].x'],
      [{ id: 'nul', data: { 'k\u0000': 1 } }, 'data (one of its keys)'],
    ] as const) {
      const res = await upsert(body);
      expect(res.status).toBe(422);
      expect(res.body.details).toEqual([
        `${field} contains a NUL character (U+0000), which cannot be stored; remove it.`,
      ]);
    }
    expect((await t.http.get('/v1/subscribers/nul').set('X-Api-Key', key)).status).toBe(404);
  });

  it('bounds data: one call over 64 KiB, or a merge that would grow the stored data past it, is a 422 that writes nothing', async () => {
    const big = (n: number) => 'x'.repeat(n);
    const once = await upsert({ id: 'huge', data: { blob: big(70_000) } });
    expect(once.status).toBe(422);
    expect(once.body.details).toEqual([expect.stringMatching(/^data must be at most 65536 bytes as JSON/)]);
    expect((await t.http.get('/v1/subscribers/huge').set('X-Api-Key', key)).status).toBe(404);

    await upsert({ id: 'grower', email: 'g@example.com', data: { a: big(40_000) } }).expect(200);
    const grown = await upsert({ id: 'grower', email: 'new@example.com', data: { b: big(40_000) } });
    expect(grown.status).toBe(422);
    expect(grown.body.details).toEqual([expect.stringMatching(/^data would be over 65536 bytes as JSON once merged/)]);
    const kept = (await t.http.get('/v1/subscribers/grower').set('X-Api-Key', key)).body;
    expect(kept.email).toBe('g@example.com');
    expect(Object.keys(kept.data)).toEqual(['a']);
    // Replacing a key keeps the size, and a call without data still updates the other fields.
    await upsert({ id: 'grower', data: { a: big(40_001) } }).expect(200);
    await upsert({ id: 'grower', email: 'new@example.com' }).expect(200);
  });

  it('lists one cursor page at a time, with search', async () => {
    for (let i = 0; i < 7; i++)
      await upsert({ id: `page_${i}`, email: `p${i}@list.example`, first_name: i === 3 ? 'Zed' : 'Al' }).expect(200);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.http
        .get('/v1/subscribers')
        .set('X-Api-Key', key)
        .query({ limit: 3, q: 'list.example', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.items.map((s: { id: string }) => s.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['page_0', 'page_1', 'page_2', 'page_3', 'page_4', 'page_5', 'page_6']);
    const zed = await t.http.get('/v1/subscribers').set('X-Api-Key', key).query({ q: 'zed' });
    expect(zed.body.items.map((s: { id: string }) => s.id)).toEqual(['page_3']);
    // A literal % is searched for, not used as a wildcard.
    expect((await t.http.get('/v1/subscribers').set('X-Api-Key', key).query({ q: '%' })).body.items).toEqual([]);
    const bad = await t.http.get('/v1/subscribers').set('X-Api-Key', key).query({ cursor: '!!' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_cursor');
    expect((await t.http.get('/v1/subscribers').set('X-Api-Key', key).query({ limit: 1000 })).status).toBe(422);
  });

  it("pages by notifyd 0.x's deprecated offset too, answering offset and total; not with a cursor", async () => {
    const list = (query: Record<string, unknown>) => t.http.get('/v1/subscribers').set('X-Api-Key', key).query(query);
    const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((s) => s.id);
    const second = await list({ q: 'list.example', limit: 3, offset: 3 });
    expect(second.status).toBe(200);
    expect(ids(second)).toEqual(['page_3', 'page_4', 'page_5']);
    expect(second.body).toMatchObject({ offset: 3, total: 7, limit: 3, next_cursor: expect.any(String) });
    const last = await list({ q: 'list.example', limit: 3, offset: 6 });
    expect([ids(last), last.body.next_cursor, last.body.total]).toEqual([['page_6'], null, 7]);
    expect((await list({ q: 'list.example', offset: 50 })).body).toMatchObject({ items: [], total: 7, offset: 50 });
    // Without offset the answer is the cursor one, without total.
    expect((await list({ q: 'list.example', limit: 3 })).body).not.toHaveProperty('total');
    const both = await list({ offset: 3, cursor: second.body.next_cursor });
    expect([both.status, both.body.message]).toEqual([
      422,
      expect.stringMatching(/offset and cursor cannot be combined/),
    ]);
    for (const offset of [-1, 100_001, 'x']) {
      const bad = await list({ offset });
      expect([bad.status, [...new Set(bad.body.details)]]).toEqual([
        422,
        ['offset must be a whole number between 0 and 100000'],
      ]);
    }
  });

  it('is scoped to the project: another project sees 404, and its own list is separate', async () => {
    expect((await t.http.get('/v1/subscribers/jane').set('X-Api-Key', otherKey)).status).toBe(404);
    expect((await t.http.delete('/v1/subscribers/jane').set('X-Api-Key', otherKey)).status).toBe(404);
    expect((await t.http.get('/v1/subscribers').set('X-Api-Key', otherKey)).body.items).toEqual([]);
  });

  it('deletes', async () => {
    expect((await t.http.delete('/v1/subscribers/jane').set('X-Api-Key', key)).status).toBe(200);
    expect((await t.http.get('/v1/subscribers/jane').set('X-Api-Key', key)).status).toBe(404);
    expect((await t.http.delete('/v1/subscribers/jane').set('X-Api-Key', key)).status).toBe(404);
  });
});

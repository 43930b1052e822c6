import { connectMcp, resultText, structured } from './helpers/mcp-client.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/** POST /v1/subscribers/bulk: many upserts in one call, refused items reported by index. */
describe('bulk subscribers', () => {
  let t: TestApp;
  let key: string;
  let other: { id: string; key: string };
  beforeAll(async () => {
    t = await startTestApp();
    key = (await t.createProject('bulk')).key;
    other = await t.createProject('bulk-other');
  });
  afterAll(() => t.close());

  const bulk = (subscribers: unknown, k = key) =>
    t.http.post('/v1/subscribers/bulk').set('X-Api-Key', k).send({ subscribers });
  const get = async (id: string, k = key) =>
    (await t.http.get(`/v1/subscribers/${encodeURIComponent(id)}`).set('X-Api-Key', k)).body;
  /** A subscriber as GET shows it, without its id and timestamps. */
  const stored = ({ created_at: _c, updated_at: _u, id: _id, ...rest }: Record<string, unknown>) => rest;

  it('writes the valid items and reports each refused one by index, id, field and the single route’s message', async () => {
    const res = await bulk([
      { id: 'ok_1', email: 'ann@example.com', locale: 'es-mx', timezone: 'Europe/Paris', data: { plan: 'pro' } },
      { id: 'bad_email', email: 'not-an-email' },
      { id: 'ok_2', phone: '+33612345678', first_name: 'Bo' },
      'just a string',
      { id: 'two_bad', phone: '0612345678', timezone: 'Mars/Olympus' },
      { id: 'extra', email: 'x@example.com', nickname: 'X' },
      { email: 'no-id@example.com' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 0, duplicates: 0, failed: 5 });
    expect(res.body.errors).toEqual([
      {
        index: 1,
        id: 'bad_email',
        field: 'email',
        message: expect.stringMatching(/^email must be an email address such as jane@example\.com/),
      },
      { index: 3, id: null, field: null, message: expect.stringMatching(/must be a JSON object/) },
      { index: 4, id: 'two_bad', field: 'phone', message: expect.stringMatching(/^phone must be an E\.164 number/) },
      {
        index: 4,
        id: 'two_bad',
        field: 'timezone',
        message: expect.stringMatching(/^timezone must be an IANA time zone/),
      },
      {
        index: 5,
        id: 'extra',
        field: 'nickname',
        message: expect.stringMatching(/^nickname is not a field this route accepts/),
      },
      { index: 6, id: null, field: 'id', message: expect.stringMatching(/^id must be 1–255 printable characters/) },
      { index: 6, id: null, field: 'id', message: 'id must be a string' },
    ]);
    // What the single route would have stored: the canonical locale.
    expect(await get('ok_1')).toMatchObject({
      email: 'ann@example.com',
      locale: 'es-MX',
      timezone: 'Europe/Paris',
      data: { plan: 'pro' },
    });
    expect(await get('ok_2')).toMatchObject({ phone: '+33612345678', first_name: 'Bo', email: null });
    const refused = await t.db.sql(
      `SELECT id FROM subscribers WHERE project_id = 'bulk' AND id IN ('bad_email', 'two_bad', 'extra', 'nul')`,
    );
    expect(refused).toEqual([]);
    // A NUL character (which PostgreSQL cannot store) anywhere in a body is refused whole, naming its place, as on every route.
    const nul = await bulk([
      { id: 'fine', first_name: 'A' },
      { id: 'nul', first_name: 'Z\u0000e' },
    ]);
    expect(nul.status).toBe(422);
    expect(nul.body.message).toBe(
      'subscribers[1].first_name contains a NUL character (U+0000), which cannot be stored; remove it.',
    );
    expect(await t.db.sql(`SELECT id FROM subscribers WHERE project_id = 'bulk' AND id IN ('fine', 'nul')`)).toEqual(
      [],
    );
  });

  it('updates as the single route does: absent fields kept, null clears, data merged', async () => {
    const first = {
      email: 'cy@example.com',
      phone: '+33600000001',
      first_name: 'Cy',
      last_name: 'Ng',
      locale: 'fr-FR',
      timezone: 'Europe/Paris',
      data: { plan: 'free', a: 1 },
    };
    const second = { first_name: 'Cyril', phone: null, data: { plan: 'pro', b: 2 } };
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', key)
      .send({ id: 'single', ...first })
      .expect(200);
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', key)
      .send({ id: 'single', ...second })
      .expect(200);
    expect((await bulk([{ id: 'multi', ...first }])).body).toMatchObject({ created: 1, updated: 0 });
    expect((await bulk([{ id: 'multi', ...second }])).body).toMatchObject({ created: 0, updated: 1, errors: [] });
    const viaBulk = stored(await get('multi'));
    expect(viaBulk).toEqual(stored(await get('single')));
    expect(viaBulk).toEqual({
      email: 'cy@example.com',
      phone: null,
      first_name: 'Cyril',
      last_name: 'Ng',
      locale: 'fr-FR',
      timezone: 'Europe/Paris',
      data: { plan: 'pro', a: 1, b: 2 },
    });
  });

  it('applies an id given twice in order, as two calls would, and writes it once', async () => {
    const res = await bulk([
      { id: 'twice', email: 'one@example.com', first_name: 'One', data: { a: 1, b: 1 } },
      { id: 'twice', email: 'two@example.com', last_name: 'Two', data: { b: 2 } },
      { id: 'twice', email: 'broken' },
    ]);
    expect(res.body).toMatchObject({ created: 1, updated: 0, duplicates: 1, failed: 1 });
    expect(await get('twice')).toMatchObject({
      email: 'two@example.com',
      first_name: 'One',
      last_name: 'Two',
      data: { a: 1, b: 2 },
    });
  });

  it('stays in the caller’s project: the same id elsewhere is untouched', async () => {
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', other.key)
      .send({ id: 'shared', email: 'theirs@example.com', data: { owner: 'other' } })
      .expect(200);
    const res = await bulk([{ id: 'shared', email: 'ours@example.com', data: { owner: 'bulk' } }]);
    expect(res.body).toMatchObject({ created: 1, updated: 0 });
    expect(await get('shared', other.key)).toMatchObject({ email: 'theirs@example.com', data: { owner: 'other' } });
    expect(await get('shared')).toMatchObject({ email: 'ours@example.com', data: { owner: 'bulk' } });
    expect((await t.http.post('/v1/subscribers/bulk').send({ subscribers: [{ id: 'x' }] })).status).toBe(401);
  });

  it('takes 10 000 subscribers in one call, refuses 10 001 naming the limit, and a body over BODY_LIMIT_BYTES with 413', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      id: `many_${i}`,
      email: `m${i}@example.com`,
      data: { n: i },
    }));
    const started = Date.now();
    const ok = await bulk(many);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ created: 10_000, updated: 0, duplicates: 0, failed: 0, errors: [] });
    const again = await bulk(many.map((s) => ({ id: s.id, first_name: 'M' })));
    expect(again.body).toMatchObject({ created: 0, updated: 10_000 });
    process.stderr.write(`bulk: 2 × 10 000 subscribers in ${Date.now() - started} ms\n`);
    const [{ count }] = await t.db.sql(
      `SELECT count(*)::int AS count FROM subscribers WHERE project_id = 'bulk' AND id LIKE 'many\\_%' AND first_name = 'M' AND email IS NOT NULL`,
    );
    expect(count).toBe(10_000);

    const tooMany = await bulk([...many, { id: 'one_more' }]);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.message).toMatch(/subscribers may hold at most 10000 items per call/);
    expect((await t.db.sql(`SELECT id FROM subscribers WHERE project_id = 'bulk' AND id = 'one_more'`)).length).toBe(0);

    const huge = await bulk([{ id: 'huge', data: { blob: 'x'.repeat(6 * 1024 * 1024) } }]);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: 'payload_too_large', message: expect.stringMatching(/BODY_LIMIT_BYTES/) });

    expect((await bulk([])).status).toBe(422);
    const notList = await bulk({ id: 'x' });
    expect(notList.status).toBe(422);
    expect(notList.body.message).toMatch(/subscribers must be an array/);
  }, 180_000);

  it('refuses by index an item whose data would grow the stored data past 64 KiB, and writes the others', async () => {
    const big = (n: number) => 'y'.repeat(n);
    await bulk([{ id: 'fat', data: { a: big(40_000) } }]).expect(200);
    const res = await bulk([
      { id: 'thin_1', email: 'thin1@example.com' },
      { id: 'fat', email: 'fat@example.com', data: { b: big(40_000) } },
      { id: 'thin_2', data: { c: 1 } },
      { id: 'fat_new', data: { a: big(70_000) } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 0, duplicates: 0, failed: 2 });
    expect(res.body.errors).toEqual([
      {
        index: 1,
        id: 'fat',
        field: 'data',
        message: expect.stringMatching(/^data would be over 65536 bytes as JSON once merged/),
      },
      { index: 3, id: 'fat_new', field: 'data', message: expect.stringMatching(/^data must be at most 65536 bytes/) },
    ]);
    expect(await get('fat')).toMatchObject({ email: null, data: { a: big(40_000) } });
    expect(await get('thin_2')).toMatchObject({ data: { c: 1 } });
  });

  it('MCP bulk_upsert_subscribers: the same per-item check and project rules as the route', async () => {
    const own = await connectMcp(t.url, key);
    const admin = await connectMcp(t.url, ADMIN_KEY);
    const reader = await connectMcp(t.url, READONLY_KEY);
    try {
      const result = await own.callTool({
        name: 'bulk_upsert_subscribers',
        arguments: {
          subscribers: [
            { id: 'mcp_1', email: 'm1@example.com' },
            { id: 'mcp_2', phone: 'call me' },
          ],
        },
      });
      expect(result.isError).toBe(true);
      expect(structured(result)).toMatchObject({
        created: 1,
        failed: 1,
        errors: [{ index: 1, id: 'mcp_2', field: 'phone' }],
      });
      expect(resultText(result)).toMatch(
        /^1 created, 0 updated, 1 refused\.\n#1 \(mcp_2\): phone must be an E\.164 number/,
      );
      expect(await get('mcp_1')).toMatchObject({ email: 'm1@example.com' });
      // A project key names no other project; an operator must name one; the read-only key may not write.
      expect(
        resultText(
          await own.callTool({
            name: 'bulk_upsert_subscribers',
            arguments: { project_id: other.id, subscribers: [{ id: 'mcp_x' }] },
          }),
        ),
      ).toMatch(/project/);
      expect((await get('mcp_x', other.key)).error).toBe('not_found');
      expect(
        resultText(
          await admin.callTool({ name: 'bulk_upsert_subscribers', arguments: { subscribers: [{ id: 'mcp_3' }] } }),
        ),
      ).toMatch(/project_id is required/);
      const byAdmin = await admin.callTool({
        name: 'bulk_upsert_subscribers',
        arguments: { project_id: other.id, subscribers: [{ id: 'mcp_3', first_name: 'Op' }] },
      });
      expect(structured(byAdmin)).toMatchObject({ created: 1, failed: 0 });
      expect(await get('mcp_3', other.key)).toMatchObject({ first_name: 'Op' });
      const denied = await reader.callTool({
        name: 'bulk_upsert_subscribers',
        arguments: { project_id: other.id, subscribers: [{ id: 'mcp_4' }] },
      });
      expect(denied.isError).toBe(true);
      expect((await get('mcp_4', other.key)).error).toBe('not_found');
    } finally {
      await Promise.all([own.close(), admin.close(), reader.close()]);
    }
  });
});

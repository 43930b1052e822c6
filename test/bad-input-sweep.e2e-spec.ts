import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The bad-input sweep: every route in the OpenAPI document (so a new route is covered the day
 * it is added) gets malformed JSON, wrong JSON types, an unknown field, an oversize body, ids
 * that do not exist or belong to another project, and header injection. Each must answer 4xx —
 * never 2xx, never 5xx, never a stack trace — and the whole sweep must change nothing in the
 * database.
 */
const BODY_LIMIT = 65_536;
/** What another project's job says: no answer to the sweep's project may contain it. */
const SECRET = 'other-project-private-subject';

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  hasBody: boolean;
}

describe('bad input sweep over every route', () => {
  let t: TestApp;
  let projectKey: string;
  let otherJobId: string;
  let operations: Operation[];

  /**
   * Row counts of every table: the sweep must leave them all as they were. Except
   * rate_limit_counts, whose rows count the requests themselves (one per minute and process), and
   * periodic_runs, which the app's own periodic tasks write when one falls due during the sweep.
   */
  const snapshot = async () => {
    const tables = await t.db.sql<{ name: string }>(
      `SELECT quote_ident(table_name) AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('rate_limit_counts', 'periodic_runs') ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables)
      counts[name] = Number((await t.db.sql<{ n: string }>(`SELECT count(*) AS n FROM ${name}`))[0].n);
    return counts;
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { BODY_LIMIT_BYTES: String(BODY_LIMIT), EMAIL_PROVIDER: 'log' } });
    projectKey = (await t.createProject('sweep')).key;
    // Another project's job: the sweep's project must not see or touch it.
    const other = await t.createProject('other');
    const sent = await t.http
      .post('/v1/send')
      .set('X-Api-Key', other.key)
      .send({ channels: ['email'], to: 'x@example.com', subject: SECRET, body: SECRET });
    otherJobId = sent.body.job_ids[0];
    const doc = (await t.http.get('/docs/json')).body as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]) => ({ method: method as Operation['method'], path, hasBody: Boolean(op.requestBody) })),
    );
  });
  afterAll(() => t.close());

  const keyFor = (path: string) => (path.startsWith('/v1/admin') ? ADMIN_KEY : projectKey);
  /** Path parameters become ids that do not exist, or the other project's job id. */
  const concrete = (path: string, id: string) => path.replace(/\{[^}]+\}/g, id);
  const call = (op: Operation, path: string) =>
    t.http[op.method](path)
      .set('X-Api-Key', keyFor(op.path))
      .timeout({ response: 10_000, deadline: 20_000 })
      .ok(() => true);
  const expectRefused = (op: Operation, what: string, res: { status: number; text: string }) => {
    const where = `${op.method.toUpperCase()} ${op.path} (${what}) answered ${res.status}: ${res.text.slice(0, 200)}`;
    expect([where, res.status >= 400 && res.status < 500]).toEqual([where, true]);
    expect([where, /at \w+ \(|node_modules|\.ts:\d+/.test(res.text)]).toEqual([where, false]);
  };

  it('covers the API (the document lists the routes)', () => {
    expect(operations.length).toBeGreaterThan(30);
  });

  it('malformed JSON, wrong JSON types, unknown fields and oversize bodies are 4xx on every route with a body, with no side effect', async () => {
    const before = await snapshot();
    for (const op of operations.filter((o) => o.hasBody)) {
      const path = concrete(op.path, 'zz-unknown');
      expectRefused(
        op,
        'malformed JSON',
        await call(op, path).set('Content-Type', 'application/json').send('{"a": [1,'),
      );
      expectRefused(op, 'array body', await call(op, path).set('Content-Type', 'application/json').send('[1,2,3]'));
      expectRefused(op, 'string body', await call(op, path).set('Content-Type', 'application/json').send('"text"'));
      expectRefused(op, 'unknown field', await call(op, path).send({ zz_unknown_field: true }));
      expectRefused(
        op,
        'oversize body',
        await call(op, path)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT) })),
      );
    }
    expect(await snapshot()).toEqual(before);
  }, 300_000);

  it("ids that do not exist, and another project's job, change nothing and show nothing on every route with a path parameter", async () => {
    const before = await snapshot();
    // Event streams stay open by design (an unknown subscriber's stream is simply quiet); the inbox tests cover them.
    const isStream = (o: Operation) => o.method === 'get' && o.path.endsWith('/stream');
    for (const op of operations.filter(
      (o) => o.path.includes('{') && !o.path.startsWith('/v1/admin') && !isStream(o),
    )) {
      for (const id of ['zz-unknown', '00000000-0000-4000-8000-000000000000', otherJobId]) {
        const req = call(op, concrete(op.path, id));
        const res = await (op.hasBody ? req.send({}) : req);
        if (op.path.startsWith('/v1/jobs/')) {
          expectRefused(op, `id ${id}`, res); // a job of another project, or none: 404
        } else {
          // Elsewhere an unknown id may be an empty list or a no-op (mark all read for nobody):
          // never a 5xx or a stack trace, never the other project's data, never a change (below).
          const where = `${op.method.toUpperCase()} ${op.path} (id ${id}) answered ${res.status}: ${res.text.slice(0, 200)}`;
          const shows = res.text.includes(SECRET) || /"items":\[\{/.test(res.text);
          expect([where, res.status < 500, shows]).toEqual([where, true, false]);
        }
      }
    }
    expect(await snapshot()).toEqual(before);
    const other = await t.db.sql<{ status: string }>(`SELECT status FROM jobs WHERE id = $1`, [otherJobId]);
    expect(other[0].status).not.toBe('cancelled');
  }, 300_000);

  it('header injection (a line break in a subject, a sender name, a header) is refused', async () => {
    const send = (body: Record<string, unknown>) =>
      t.http
        .post('/v1/send')
        .set('X-Api-Key', projectKey)
        .send({ channels: ['email'], to: 'x@example.com', body: 'b', ...body });
    for (const body of [
      { subject: 'Hi\r\nBcc: victim@example.com' },
      { subject: 'Hi', email_headers: { 'X-Campaign': 'a\r\nBcc: victim@example.com' } },
      { subject: 'Hi', email_headers: { 'X-Campaign\r\nBcc': 'victim@example.com' } },
      { subject: 'Hi', reply_to: 'a@example.com\r\nBcc: victim@example.com' },
    ]) {
      const res = await send(body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 422]);
    }
    // The project's sender name ends up in the From header too.
    const patch = await t.http
      .patch('/v1/admin/projects/sweep')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ from_name: 'Shop\r\nBcc: victim@example.com' });
    expect(patch.status).toBe(422);
  });
});

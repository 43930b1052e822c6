import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Every kind of bad input gets a 4xx with {"error", "message"} naming the field and the fix:
 * never a 500, never a stack trace, never a side effect.
 */
describe('bad input', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { BODY_LIMIT_BYTES: '65536' } });
    key = (await t.createProject('strict')).key;
  });
  afterAll(() => t.close());

  const expectError = (
    res: { status: number; body: Record<string, unknown>; text: string },
    status: number,
    code: string,
    message?: RegExp,
  ) => {
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
    expect(typeof res.body.message).toBe('string');
    if (message) expect(res.body.message).toMatch(message);
    expect(res.text).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
  };
  const post = (path: string, k = key) => t.http.post(path).set('X-Api-Key', k);

  /** Every JSON route and whose key it takes. */
  const jsonRoutes: [string, 'project' | 'admin'][] = [
    ['/v1/send', 'project'],
    ['/v1/schedule', 'project'],
    ['/v1/batch', 'project'],
    ['/v1/subscribers', 'project'],
    ['/v1/admin/projects', 'admin'],
    ['/v1/admin/send-test', 'admin'],
  ];
  const keyFor = (path: string) => (jsonRoutes.find(([p]) => p === path)![1] === 'admin' ? ADMIN_KEY : key);

  it.each(jsonRoutes.map(([p]) => [p]))('%s: malformed JSON is 400 invalid_json', async (path) => {
    const k = keyFor(path);
    const res = await post(path, k).set('Content-Type', 'application/json').send('{"channels": ["email",');
    expectError(res, 400, 'invalid_json', /not valid JSON/);
  });

  it.each(jsonRoutes.map(([p]) => [p]))('%s: a body that is not JSON is 415', async (path) => {
    const k = keyFor(path);
    const res = await post(path, k).set('Content-Type', 'text/plain').send('hello');
    expectError(res, 415, 'unsupported_media_type', /application\/json/);
  });

  it.each(jsonRoutes.map(([p]) => [p]))('%s: an oversize body is 413', async (path) => {
    const k = keyFor(path);
    const res = await post(path, k).send({ body: 'x'.repeat(70_000) });
    expectError(res, 413, 'payload_too_large', /BODY_LIMIT_BYTES/);
  });

  it.each(jsonRoutes.map(([p]) => [p]))('%s: a JSON array or scalar instead of an object is 422', async (path) => {
    const k = keyFor(path);
    const res = await post(path, k).set('Content-Type', 'application/json').send('[1,2]');
    expect([400, 422]).toContain(res.status);
    expect(res.body.error).toMatch(/validation_failed|bad_request/);
  });

  it.each([
    [
      'unknown field',
      { to: 'a@example.com', body: 'x', projectId: 'other' },
      /projectId is not a field this route accepts/,
    ],
    ['wrong type', { to: 'a@example.com', body: 42 }, /body must be a string/],
    ['unknown channel', { channels: ['fax'], to: 'a@example.com' }, /each value in channels must be one of email, sms/],
    [
      'unknown channel in the string form',
      { channel: 'email,fax', to: 'a@example.com' },
      /channel must be one channel or a comma-separated list/,
    ],
    ['channels not a list', { channels: 'email', to: 'a@example.com' }, /channels must be an array/],
    [
      'bad priority',
      { to: 'a@example.com', priority: 'urgent' },
      /priority must be critical, high, normal, low, bulk or a whole number/,
    ],
    ['priority out of range', { to: 'a@example.com', priority: 101 }, /priority must be/],
    [
      'date without time zone',
      { to: 'a@example.com', scheduled_at: '2026-12-01T09:00:00' },
      /scheduled_at must be an RFC 3339 date-time with a time zone/,
    ],
    [
      'impossible date',
      { to: 'a@example.com', scheduled_at: '2026-02-30T09:00:00Z' },
      /scheduled_at must be an RFC 3339/,
    ],
    [
      'header injection in the subject',
      { to: 'a@example.com', subject: 'Hi\r\nBcc: victim@example.com' },
      /subject must be a single line/,
    ],
    [
      'header injection in custom headers',
      { channels: ['email'], to: 'a@example.com', email_headers: { 'X-A': 'a\r\nBcc: v@example.com' } },
      /email_headers header X-A may not contain line breaks/,
    ],
    [
      'reserved header',
      { channels: ['email'], to: 'a@example.com', email_headers: { Bcc: 'v@example.com' } },
      /may not set Bcc/,
    ],
    [
      'bad sms sender',
      { channels: ['sms'], to: '+33612345678', sms: { from: '0612' } },
      /sms.from must be an E.164 number/,
    ],
    ['vars not an object', { to: 'a@example.com', vars: [1] }, /vars must be an object/],
    [
      'tags of the wrong shape',
      { to: 'a@example.com', tags: [{ name: 'a b', value: 'x' }] },
      /tags\[0\]\.name must be 1–256 letters/,
    ],
    [
      'too many cc',
      { channels: ['email'], to: 'a@example.com', cc: Array.from({ length: 11 }, (_, i) => `c${i}@example.com`) },
      /cc must contain no more than 10/,
    ],
    [
      'bad attachment',
      { channels: ['email'], to: 'a@example.com', attachments: [{ filename: 'a.pdf', content: 'not base64!' }] },
      /attachments\[0\]\.content must be base64/,
    ],
    [
      'bad idempotency key',
      { to: 'a@example.com', idempotency_key: 'has space' },
      /idempotency_key must be 1–200 printable ASCII/,
    ],
    [
      'both channel and channels',
      { channel: 'email', channels: ['sms'], to: 'a@example.com' },
      /either channels .* or channel/,
    ],
  ])('send: %s → 422 naming the field', async (_, body, message) => {
    const res = await post('/v1/send').send(body);
    expectError(res, 422, 'validation_failed', message);
  });

  it('reports every problem of a request at once', async () => {
    const res = await post('/v1/send').send({ channels: ['fax'], priority: 'urgent', scheduled_at: 'soon', extra: 1 });
    expect(res.status).toBe(422);
    expect(res.body.details).toHaveLength(4);
  });

  it('bad query parameters are 422 naming the parameter', async () => {
    expectError(
      await t.http.get('/v1/subscribers').set('X-Api-Key', key).query({ limit: 'many' }),
      422,
      'validation_failed',
      /limit must be an integer/,
    );
    expectError(
      await t.http.get('/v1/subscribers').set('X-Api-Key', key).query({ sort: 'id' }),
      422,
      'validation_failed',
      /sort is not a field/,
    );
    const admin = t.http.get('/v1/admin/jobs').set('X-Api-Key', ADMIN_KEY);
    expectError(
      await admin.query({ status: 'lost', since: 'yesterday' }),
      422,
      'validation_failed',
      /status must be one of pending/,
    );
  });

  it.each([
    '/v1/admin/audit',
    '/v1/admin/trace',
    '/v1/admin/jobs',
    '/v1/admin/metrics/templates',
    '/v1/admin/suppressions',
    '/v1/admin/webhooks',
  ])('%s: a project_id filter that is not a project id is 422 saying what one is', async (path) => {
    expectError(
      await t.http.get(path).set('X-Api-Key', ADMIN_KEY).query({ project_id: 'Acme Inc' }),
      422,
      'validation_failed',
      /^project_id must be 1–63 lowercase letters, digits, - or _/,
    );
  });

  it('missing and invalid keys are 401 with how to send one', async () => {
    expectError(
      await t.http.post('/v1/send').send({ to: 'a@example.com' }),
      401,
      'unauthorized',
      /X-Api-Key or Authorization: Bearer/,
    );
    expectError(
      await post('/v1/send', 'sk_strict_00000000000000000000000000000000').send({}),
      401,
      'unauthorized',
      /Invalid API key/,
    );
    expectError(await t.http.post('/v1/send').set('Authorization', 'Basic abc').send({}), 401, 'unauthorized');
  });

  it('unknown routes and methods are 404 pointing at the docs', async () => {
    expectError(await t.http.get('/v1/nope'), 404, 'not_found', /\/docs/);
    expectError(await t.http.put('/v1/send').set('X-Api-Key', key).send({}), 404, 'not_found');
  });

  it('a request id is echoed when it is plain and replaced when it is not', async () => {
    const res = await t.http.get('/v1/health').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
    const weird = await t.http.get('/v1/health').set('X-Request-Id', 'a'.repeat(300));
    expect(weird.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('none of the bad requests above created a job', async () => {
    expect(await t.db.sql(`SELECT id FROM jobs`)).toEqual([]);
  });
});

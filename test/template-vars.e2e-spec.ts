import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * JSON nested thousands of levels deep: JSON.parse and jsonb take it, class-transformer and the
 * structured clone to a render thread overflow the stack. Refused at the door with a 422 naming
 * the field, on every route with free-form objects (template preview and send vars, subscriber
 * data), instead of a 500. (A render task that still cannot be posted: template-engine.spec.ts.)
 */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}{"leaf":"x"}${'}'.repeat(depth)}`;

describe('deeply nested vars and data', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  beforeAll(async () => {
    t = await startTestApp({ env: { TEMPLATE_RENDER_THREADS: '1' } });
    project = await t.createProject();
  });
  afterAll(() => t.close());

  // Bodies written as text: JSON.stringify and supertest's serialiser recurse and would overflow first.
  const post = (path: string, body: string) =>
    t.http.post(path).set('X-Api-Key', project.key).set('content-type', 'application/json').timeout(30_000).send(body);
  const refusal = (field: string) => ({
    error: 'validation_failed',
    details: [expect.stringMatching(new RegExp(`^${field}.* is nested more than 100 levels deep; flatten it`))],
  });

  it('are a 422 naming the field at preview, send and subscriber upsert; the renderer still renders after', async () => {
    await post('/v1/templates', '{"id":"hello","channel":"sms","body":"Hi {{name}}"}').expect(200);
    for (const depth of [150, 2_200, 5_000]) {
      const preview = await post('/v1/templates/hello/preview', `{"vars":{"name":"x","deep":${nested(depth)}}}`);
      expect(preview.status).toBe(422);
      expect(preview.body).toMatchObject(refusal('vars\\.deep'));
      const send = await post('/v1/send', `{"channel":"sms","to":"+33600000091","body":"n","vars":${nested(depth)}}`);
      expect(send.status).toBe(422);
      expect(send.body).toMatchObject(refusal('vars\\.a'));
      const subscriber = await post('/v1/subscribers', `{"id":"deep","data":${nested(depth)}}`);
      expect(subscriber.status).toBe(422);
      expect(subscriber.body).toMatchObject(refusal('data\\.a'));
    }
    const ok = await post('/v1/templates/hello/preview', `{"vars":{"name":"Ann","shallow":${nested(20)}}}`);
    expect(ok.status).toBe(200);
    expect(ok.body.body).toBe('Hi Ann');
  });
});

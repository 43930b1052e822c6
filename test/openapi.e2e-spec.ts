import { startTestApp, type TestApp } from './helpers/test-app.js';

type Schema = {
  $ref?: string;
  properties?: Record<string, Schema & { example?: unknown }>;
  items?: Schema;
  example?: unknown;
  allOf?: Schema[];
};
type Operation = {
  operationId?: string;
  summary?: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema; example?: unknown }> }>;
};

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };
  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.http.get('/docs/json')).body;
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
    );
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref
      ? doc.components.schemas[schema.$ref.split('/').pop()!]
      : schema?.allOf
        ? resolve(schema.allOf[0])
        : schema;
  const hasExample = (schema: Schema | undefined, depth = 0): boolean => {
    const s = resolve(schema);
    if (!s || depth > 3) return false;
    if (s.example !== undefined) return true;
    if (s.items) return hasExample(s.items, depth + 1);
    return Object.values(s.properties ?? {}).some((p) => p.example !== undefined || hasExample(p, depth + 1));
  };

  it('is OpenAPI 3 and served with Swagger UI at /docs', async () => {
    expect(doc.openapi).toMatch(/^3\./);
    const ui = await t.http.get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toMatch(/swagger/i);
  });

  it('documents the foundation routes', () => {
    const routes = operations().map((o) => o.route);
    for (const route of [
      'POST /v1/send',
      'POST /v1/schedule',
      'POST /v1/batch',
      'GET /v1/jobs/{id}',
      'DELETE /v1/jobs/{id}',
      'POST /v1/jobs/{id}/retry',
      'POST /v1/subscribers',
      'GET /v1/admin/jobs',
      'POST /v1/admin/projects/{id}/rotate-key',
      'GET /v1/health/ready',
    ]) {
      expect(routes).toContain(route);
    }
  });

  it('every operation has a unique, readable operationId and a summary', () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { route, op } of operations())
      expect([route, op.summary && op.summary.length > 10]).toEqual([route, true]);
  });

  it('every operation documents its error responses with the error schema', () => {
    for (const { route, op } of operations()) {
      if (op.operationId === 'getHealth') continue; // liveness answers 200 even when degraded
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect([route, errors.length > 0]).toEqual([route, true]);
      for (const [status, response] of errors) {
        const content = response.content?.['application/json'];
        expect([route, status, content?.example !== undefined || hasExample(content?.schema)]).toEqual([
          route,
          status,
          true,
        ]);
      }
    }
  });

  it('every operation carries an example (request or response)', () => {
    for (const { route, op } of operations()) {
      const request = op.requestBody ? hasExample(Object.values(op.requestBody.content)[0]?.schema) : false;
      const success = Object.entries(op.responses)
        .filter(([status]) => Number(status) < 300)
        // A 204 has no body to show: its status says it all.
        .some(
          ([status, r]) =>
            status === '204' ||
            Object.values(r.content ?? {}).some((c) => c.example !== undefined || hasExample(c.schema)),
        );
      expect([route, request || success]).toEqual([route, true]);
    }
  });

  it('declares the project key and bearer security schemes', () => {
    expect(
      Object.keys((doc as unknown as { components: { securitySchemes: object } }).components.securitySchemes),
    ).toEqual(expect.arrayContaining(['apiKey', 'bearer']));
  });
});

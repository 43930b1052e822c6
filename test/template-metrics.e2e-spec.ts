import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectMcp, structured } from './helpers/mcp-client.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/** The email funnel per template (notifyd's /admin/metrics/templates and template_metrics). */
describe('template metrics', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  let other: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { EMAIL_PROVIDER: 'log' } });
    project = await t.createProject();
    other = await t.createProject();
    // Jobs in the shapes the funnel reads: a template id, a template tag, a category tag, none.
    await t.db.sql(
      `INSERT INTO jobs (project_id, channel, recipient, template_id, payload, status, sent_at, delivered_at, bounced_at, complained_at, opened_at, clicked_at)
       VALUES ($1, 'email', 'a@example.com', 'welcome', '{}', 'sent', now(), now(), NULL, NULL, now(), now()),
              ($1, 'email', 'b@example.com', 'welcome', '{}', 'sent', now(), NULL, now(), NULL, NULL, NULL),
              ($1, 'email', 'c@example.com', 'welcome', '{}', 'failed', NULL, NULL, NULL, NULL, NULL, NULL),
              ($1, 'email', 'd@example.com', NULL, '{"tags":[{"name":"template","value":"receipt"}]}', 'sent', now(), now(), NULL, now(), NULL, NULL),
              ($1, 'email', 'e@example.com', NULL, '{"tags":[{"name":"category","value":"winter-sale"}]}', 'sent', now(), NULL, NULL, NULL, NULL, NULL),
              ($1, 'email', 'f@example.com', NULL, '{}', 'sent', now(), NULL, NULL, NULL, NULL, NULL),
              ($1, 'sms', '+33600000000', 'welcome', '{}', 'sent', now(), NULL, NULL, NULL, NULL, NULL),
              ($2, 'email', 'g@example.com', 'welcome', '{}', 'sent', now(), NULL, NULL, NULL, NULL, NULL)`,
      [project.id, other.id],
    );
  });
  afterAll(() => t.close());

  it('counts the funnel per template key, email only, for one project', async () => {
    const res = await t.http
      .get(`/v1/admin/metrics/templates?window=24h&bucket=1d&project_id=${project.id}`)
      .set('X-Api-Key', READONLY_KEY);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ window: '24h', bucket: '1d' });
    const byTemplate = Object.fromEntries(res.body.rows.map((r: { template: string }) => [r.template, r]));
    expect(Object.keys(byTemplate).sort()).toEqual(['receipt', 'untemplated', 'welcome', 'winter-sale']);
    expect(byTemplate.welcome).toMatchObject({
      sent: 2,
      failed: 1,
      delivered: 1,
      bounced: 1,
      complained: 0,
      opened: 1,
      clicked: 1,
    });
    expect(byTemplate.receipt).toMatchObject({ sent: 1, delivered: 1, complained: 1 });
    // Every project: the other project's welcome email counts too.
    const all = await t.http.get('/v1/admin/metrics/templates?window=24h').set('X-Api-Key', ADMIN_KEY);
    expect(
      all.body.rows
        .filter((r: { template: string }) => r.template === 'welcome')
        .reduce((n: number, r: { sent: number }) => n + r.sent, 0),
    ).toBe(3);
  });

  it('bad window or bucket is a 400 naming the choices; a project key is refused', async () => {
    const badBucket = await t.http.get('/v1/admin/metrics/templates?bucket=1w').set('X-Api-Key', ADMIN_KEY);
    expect(badBucket.status).toBe(400);
    expect(badBucket.body).toMatchObject({ error: 'invalid_bucket', message: expect.stringMatching(/1h or 1d/) });
    expect((await t.http.get('/v1/admin/metrics/templates?window=2y').set('X-Api-Key', ADMIN_KEY)).body.error).toBe(
      'invalid_window',
    );
    expect((await t.http.get('/v1/admin/metrics/templates').set('X-Api-Key', project.key)).status).toBe(403);
  });

  it('template_metrics over MCP, for the read-only key', async () => {
    const reader: Client = await connectMcp(t.url, READONLY_KEY);
    try {
      const result = await reader.callTool({
        name: 'template_metrics',
        arguments: { window: '24h', project_id: project.id },
      });
      expect(result.isError).toBe(false);
      const funnel = structured(result);
      expect(funnel.rows.find((r: { template: string }) => r.template === 'welcome')).toMatchObject({
        sent: 2,
        bounced: 1,
      });
    } finally {
      await reader.close();
    }
  });
});

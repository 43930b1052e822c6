import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, resultText } from './helpers/mcp-client.js';
import { withinOneWindow } from './helpers/rate-window.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/** POST /mcp as a client would send it, with any JSON-RPC body (one message or a batch). */
const mcpPost = (t: TestApp, key: string, body: unknown) =>
  t.http
    .post('/mcp')
    .set({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
      authorization: `Bearer ${key}`,
    })
    .send(JSON.stringify(body));

const toolCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** Review of the MCP surface: limits, answers and views that must hold on /mcp as on REST. */
describe('MCP limits, errors and operator views', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { MCP_OPERATOR_RATE_LIMIT_PER_MIN: '20', IN_APP_PROVIDER: 'inbox' } });
  });
  afterAll(() => t?.close());

  it('a JSON-RPC batch spends one unit of the rate limit per message, for a project key and an operator key', async () => {
    await withinOneWindow();
    const project = await t.createProject();
    await t.http
      .patch(`/v1/admin/projects/${project.id}`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ rate_limit_per_min: 5 })
      .expect(200);

    // 4 tool calls in one POST: 4 of the 5 requests a minute, all answered.
    const batch = await mcpPost(
      t,
      project.key,
      [1, 2, 3, 4].map((id) => toolCall(id, 'list_subscribers')),
    );
    expect(batch.status).toBe(200);
    expect(batch.body).toHaveLength(4);
    // The fifth request fits: a single one.
    expect((await mcpPost(t, project.key, toolCall(5, 'list_subscribers'))).status).toBe(200);
    // A batch of 2 does not fit in what is left (0): refused whole, before any call runs.
    const over = await mcpPost(t, project.key, [toolCall(6, 'list_subscribers'), toolCall(7, 'list_subscribers')]);
    expect([over.status, over.body.error]).toEqual([429, 'rate_limited']);
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
    // One budget for every door: REST is refused too.
    expect((await t.http.get('/v1/subscribers').set('X-Api-Key', project.key)).status).toBe(429);

    // The operator keys' MCP_OPERATOR_RATE_LIMIT_PER_MIN (20 here) counts messages the same way.
    const operatorBatch = await mcpPost(
      t,
      READONLY_KEY,
      Array.from({ length: 21 }, (_, i) => toolCall(i + 1, 'list_projects')),
    );
    expect([operatorBatch.status, operatorBatch.body.error]).toEqual([429, 'rate_limited']);
  });

  it('an operator write naming a project that does not exist is a 404 naming it, not an internal error', async () => {
    const admin = await connectMcp(t.url, ADMIN_KEY);
    try {
      const project_id = 'no-such-project';
      const calls: [string, Record<string, unknown>][] = [
        ['upsert_subscriber', { project_id, id: 'user_1', email: 'jane@example.com' }],
        ['bulk_upsert_subscribers', { project_id, subscribers: [{ id: 'user_1', email: 'jane@example.com' }] }],
        ['add_suppression', { project_id, address: 'jane@example.com' }],
        ['upsert_template', { project_id, id: 'welcome', channel: 'email', subject: 'Hi', body: 'Hello' }],
      ];
      for (const [name, args] of calls) {
        const result = (await admin.callTool({ name, arguments: args })) as CallToolResult;
        expect([name, result.isError, resultText(result)]).toEqual([
          name,
          true,
          "Project 'no-such-project' was not found",
        ]);
      }
      expect(
        (await t.db.sql(`SELECT count(*)::int AS n FROM subscribers WHERE project_id = 'no-such-project'`))[0].n,
      ).toBe(0);
    } finally {
      await admin.close();
    }
  });

  it('the audit line of a call keeps argument names bounded and storable, whatever the caller sends', async () => {
    const project = await t.createProject();
    const huge = 'k'.repeat(200_000);
    // Refused calls (an unknown argument, a NUL in a name, an unknown tool) are audited as well.
    const calls = [
      toolCall(1, 'list_subscribers', { [huge]: 1, [`${huge}2`]: 2 }),
      toolCall(2, 'list_subscribers', { 'a\u0000b': 1 }),
      toolCall(3, 'no_such\u0000tool', {}),
    ];
    for (const call of calls) {
      const res = await mcpPost(t, project.key, call);
      expect([res.status, res.body.result?.isError]).toEqual([200, true]);
    }
    const rows = await t.db.sql(
      `SELECT action, metadata->'args' AS args, octet_length(metadata::text) AS size
         FROM audit_log WHERE project_id = $1 AND action LIKE 'mcp.%' ORDER BY id`,
      [project.id],
    );
    expect(rows.map((r) => r.action)).toEqual(['mcp.list_subscribers', 'mcp.list_subscribers', 'mcp.no_suchtool']);
    for (const row of rows) expect(row.size).toBeLessThan(10_000);
    expect(rows[1].args).toEqual(['ab']);
  });

  it('a malformed tools/call is a JSON-RPC Invalid params error naming the field, not an Internal error', async () => {
    const project = await t.createProject();
    const bad = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 42 } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_subscribers', arguments: [1, 2] } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call' },
    ];
    for (const message of bad) {
      const res = await mcpPost(t, project.key, message);
      expect(res.status).toBe(200);
      expect(res.body.error).toEqual({ code: -32602, message: expect.stringMatching(/Invalid tools\/call request/) });
    }
    expect((await mcpPost(t, project.key, bad[0])).body.error.message).toMatch(/name/);
    expect((await mcpPost(t, project.key, bad[1])).body.error.message).toMatch(/arguments/);
    // A well-formed call still runs.
    const ok = await mcpPost(t, project.key, toolCall(4, 'list_subscribers'));
    expect(ok.body.result.isError).toBe(false);
  });

  it('an operator key reads an inbox message’s title, not its body, url or data (the project key reads them)', async () => {
    const project = await t.createProject();
    expect((await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id: 'u1' })).status).toBe(200);
    const sent = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({
        channels: ['in_app'],
        subscriber_id: 'u1',
        subject: 'Your code',
        body: 'Your sign-in code is 493817',
        url: 'https://app.example.com/magic?token=s3cret',
      });
    expect(sent.status).toBe(200);
    await t.worker.drainOnce();

    const own = await mcpPost(t, project.key, toolCall(1, 'list_inbox', { subscriber_id: 'u1' }));
    expect(own.body.result.structuredContent.messages[0]).toMatchObject({
      title: 'Your code',
      body: 'Your sign-in code is 493817',
      url: 'https://app.example.com/magic?token=s3cret',
    });
    const admin = await connectMcp(t.url, ADMIN_KEY);
    try {
      const listed = (await admin.callTool({
        name: 'list_inbox',
        arguments: { project_id: project.id, subscriber_id: 'u1' },
      })) as CallToolResult;
      const [message] = (listed.structuredContent as { messages: Record<string, unknown>[] }).messages;
      expect(message).toMatchObject({ title: 'Your code', body: null, url: null, data: null });
      const marked = (await admin.callTool({
        name: 'update_inbox_message',
        arguments: { project_id: project.id, subscriber_id: 'u1', message_id: message.id, read: true },
      })) as CallToolResult;
      expect(marked.structuredContent).toMatchObject({ is_read: true, body: null, url: null, data: null });
      expect(JSON.stringify([listed, marked])).not.toMatch(/493817|s3cret/);
    } finally {
      await admin.close();
    }
  });
});

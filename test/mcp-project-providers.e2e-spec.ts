import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectMcp, resultText as text, structured } from './helpers/mcp-client.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/** Per-project providers through MCP: the same encryption and masking as the admin API. */
describe('MCP tools over per-project providers', () => {
  let app: TestApp;
  let admin: Client;
  let project: { id: string; key: string };

  beforeAll(async () => {
    app = await startTestApp({
      env: { EMAIL_PROVIDER: 'log', NOTIFYD_SECRET_KEY: randomBytes(32).toString('base64') },
    });
    project = await app.createProject();
    admin = await connectMcp(app.url, ADMIN_KEY);
  });
  afterAll(async () => {
    await admin?.close();
    await app?.close();
  });

  it('set, list (masked), and remove a project’s own Resend account', async () => {
    const set = await admin.callTool({
      name: 'set_project_provider',
      arguments: {
        project_id: project.id,
        channel: 'email',
        provider: 'resend',
        settings: { api_key: 're_mcp_secret_0123456789' },
      },
    });
    expect(set.isError).toBe(false);
    expect(structured(set)).toMatchObject({
      project_id: project.id,
      channel: 'email',
      provider: 'resend',
      settings: { api_key: '…6789' },
    });
    expect(JSON.stringify(set)).not.toContain('re_mcp_secret');
    const [row] = await app.db.sql(`SELECT secrets FROM project_providers WHERE project_id = $1`, [project.id]);
    expect(JSON.stringify(row)).not.toContain('re_mcp_secret'); // encrypted at rest

    const listed = await admin.callTool({ name: 'list_project_providers', arguments: { project_id: project.id } });
    expect(structured(listed).providers).toEqual([
      expect.objectContaining({ channel: 'email', provider: 'resend', settings: { api_key: '…6789' } }),
    ]);
    // The call is audited by argument names, never the key's value.
    const audit = await app.db.sql<{ action: string; metadata: { args?: string[] } }>(
      `SELECT action, metadata FROM audit_log ORDER BY id`,
    );
    expect(audit.find((a) => a.action === 'mcp.set_project_provider')?.metadata.args).toEqual([
      'project_id',
      'channel',
      'provider',
      'settings',
    ]);
    expect(JSON.stringify(audit)).not.toContain('re_mcp_secret');

    const removed = await admin.callTool({
      name: 'remove_project_provider',
      arguments: { project_id: project.id, channel: 'email' },
    });
    expect(structured(removed)).toEqual({ success: true });
    expect(
      structured(await admin.callTool({ name: 'list_project_providers', arguments: { project_id: project.id } }))
        .providers,
    ).toEqual([]);
  });

  it('bad settings and unknown projects are tool errors naming the fix; the read-only key sees every tool but may only list', async () => {
    const bad = await admin.callTool({
      name: 'set_project_provider',
      arguments: { project_id: project.id, channel: 'email', provider: 'resend', settings: {} },
    });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/api_key/);
    const unknown = await admin.callTool({
      name: 'list_project_providers',
      arguments: { project_id: 'no-such-project' },
    });
    expect(unknown.isError).toBe(true);
    const reader = await connectMcp(app.url, READONLY_KEY);
    try {
      const tools = (await reader.listTools()).tools;
      expect(tools.map((t) => t.name)).toContain('list_project_providers');
      // Every tool is listed to the read-only key (issue 25), the admin-only ones marked as such.
      const setTool = tools.find((t) => t.name === 'set_project_provider');
      expect(setTool?.description).toMatch(/admin key/i);
      const refusedSet = await reader.callTool({
        name: 'set_project_provider',
        arguments: { project_id: project.id, channel: 'email', provider: 'resend', settings: { api_key: 're_x' } },
      });
      expect(refusedSet.isError).toBe(true);
      const refused = await reader.callTool({
        name: 'remove_project_provider',
        arguments: { project_id: project.id, channel: 'email' },
      });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/ADMIN_API_KEY|admin key/i);
    } finally {
      await reader.close();
    }
  });
});

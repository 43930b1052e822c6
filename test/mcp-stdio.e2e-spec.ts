import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src', 'cli.js');
const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

/** `notifyd mcp` spawned from the build, driven by the SDK's own stdio client. */
async function stdioClient(args: string[], env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'notifyd-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return client;
}

describe('notifyd mcp (stdio)', () => {
  let app: TestApp;
  let project: { id: string; key: string };
  let env: Record<string, string>;

  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first');
    app = await startTestApp({ env: { SMS_PROVIDER: 'log' } });
    project = await app.createProject();
    env = {
      DATABASE_URL: app.db.url,
      ADMIN_API_KEY: ADMIN_KEY,
      READONLY_API_KEY: READONLY_KEY,
      JWT_SECRET: 'test-jwt-secret-0123456789abcdef',
      SMS_PROVIDER: 'log',
      EMAIL_PROVIDER: 'log',
    };
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves the same tools as POST /mcp, in-process on the database', async () => {
    const client = await stdioClient([], env);
    try {
      expect(client.getInstructions()).toMatch(/digest/);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['list_jobs', 'cancel_job', 'send', 'send_test', 'list_projects', 'pause_lane']),
      );
      const projects = await client.callTool({ name: 'list_projects', arguments: {} });
      expect((projects.structuredContent as { projects: { id: string }[] }).projects.map((p) => p.id)).toContain(
        project.id,
      );
      const test = await client.callTool({
        name: 'send_test',
        arguments: { project_id: project.id, channel: 'sms', to: '+33600000301', body: 'stdio' },
      });
      expect(test.isError).toBe(false);
      const id = (test.structuredContent as { id: string }).id;
      const job = await app.http.get(`/v1/admin/jobs/${id}`).set('X-Api-Key', ADMIN_KEY);
      expect(job.body).toMatchObject({ id, status: 'pending', priority: 30 });
      const bad = await client.callTool({ name: 'get_job', arguments: {} });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/^Invalid arguments for get_job: id: /);
      const audit = await app.db.sql(`SELECT actor, metadata FROM audit_log WHERE action = 'mcp.send_test'`);
      expect(audit).toEqual([
        expect.objectContaining({
          actor: 'mcp',
          metadata: expect.objectContaining({ transport: 'stdio', outcome: 'ok' }),
        }),
      ]);
    } finally {
      await client.close();
    }
  });

  it('--read-only lists every tool, marks the admin-only ones, and refuses mutating calls', async () => {
    const client = await stdioClient(['--read-only'], env);
    try {
      const tools = (await client.listTools()).tools;
      expect(
        tools
          .filter((t) => !t.annotations?.readOnlyHint)
          .every(
            (t) => t._meta?.['notifyd/requires_admin_key'] === true && t.description!.startsWith('Needs the admin key'),
          ),
      ).toBe(true);
      expect(tools.map((t) => t.name)).toContain('send_test');
      const refused = await client.callTool({
        name: 'send_test',
        arguments: { project_id: project.id, channel: 'sms', to: '+33600000302', body: 'no' },
      });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/read-only.*admin key/);
    } finally {
      await client.close();
    }
  });

  it('--url relays stdio to a running instance with the key it is given', async () => {
    const client = await stdioClient(['--url', app.url], { NOTIFYD_ADMIN_API_KEY: READONLY_KEY });
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.length).toBeGreaterThan(3);
      // It acts as the read-only key it was given: the admin-only tools say so in their listing.
      expect(tools.find((t) => t.name === 'pause_lane')!.description).toMatch(/^Needs the admin key/);
      const listed = await client.callTool({ name: 'list_jobs', arguments: { project_id: project.id } });
      expect(listed.isError).toBe(false);
      expect((listed.structuredContent as { count: number }).count).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('--url without a key exits 64 and says which variable to set', async () => {
    const child = spawn(process.execPath, [cli, 'mcp', '--url', app.url], {
      env: { PATH: process.env.PATH },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(64);
    expect(stderr).toMatch(/NOTIFYD_ADMIN_API_KEY/);
  });
});

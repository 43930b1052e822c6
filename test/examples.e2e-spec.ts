import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sendCampaign } from '../examples/campaign/campaign.js';
import { NotifydError, sendOrderShipped } from '../examples/typescript/send.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const examples = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');

/** Every example in examples/ runs against a real instance. */
describe('examples/', () => {
  let app: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    app = await startTestApp({ env: { NOTIFYD_ROLE: 'all', WORKER_POLL_INTERVAL_MS: '200' } });
    project = await app.createProject();
    for (let i = 0; i < 3; i++) {
      const res = await app.http
        .post('/v1/subscribers')
        .set('X-Api-Key', project.key)
        .send({ id: `user_${i}`, email: `user${i}@example.com`, phone: `+3360000080${i}` });
      expect(res.status).toBeLessThan(300);
    }
  });
  afterAll(() => app?.close());

  it('curl/send.sh sends an SMS and prints the provider’s answer', async () => {
    const child = spawn('bash', [join(examples, 'curl', 'send.sh'), '+33600000701'], {
      env: { PATH: process.env.PATH, NOTIFYD_URL: app.url, NOTIFYD_API_KEY: project.key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect([code, stderr]).toEqual([0, '']);
    expect(JSON.parse(stdout)).toMatchObject({
      success: true,
      outcomes: [{ channel: 'sms', status: 'sent', final: true }],
    });
  });

  it('typescript/send.ts sends to a subscriber on two channels and turns errors into NotifydError', async () => {
    const result = await sendOrderShipped({
      url: app.url,
      apiKey: project.key,
      subscriberId: 'user_0',
      orderId: 'A-1042',
    });
    expect(result.job_ids).toHaveLength(2);
    expect(result.outcomes?.map((o) => [o.channel, o.status]).sort()).toEqual([
      ['in_app', 'sent'],
      ['sms', 'sent'],
    ]);
    const again = await sendOrderShipped({
      url: app.url,
      apiKey: project.key,
      subscriberId: 'user_0',
      orderId: 'A-1042',
    });
    expect(again.job_ids).toEqual(result.job_ids);
    await expect(
      sendOrderShipped({
        url: app.url,
        apiKey: 'sk_nobody_00000000000000000000000000000000',
        subscriberId: 'user_0',
        orderId: 'A-1',
      }),
    ).rejects.toBeInstanceOf(NotifydError);
  });

  it('campaign/campaign.ts fans out through /v1/batch in chunks and is safe to re-run', async () => {
    const options = {
      url: app.url,
      apiKey: project.key,
      campaignId: 'winter-sale',
      subscribers: ['user_0', 'user_1', 'user_2'],
      subject: 'Sale',
      body: 'Everything is 30 % off',
      chunkSize: 2,
    };
    expect(await sendCampaign(options)).toEqual({ calls: 2, jobsCreated: 6, jobsDeduplicated: 0, jobsSkipped: 0 });
    expect(await sendCampaign(options)).toEqual({ calls: 2, jobsCreated: 0, jobsDeduplicated: 6, jobsSkipped: 0 });
    const [{ count }] = await app.db.sql(
      `SELECT count(*)::int AS count FROM jobs WHERE project_id = $1 AND priority = 80`,
      [project.id],
    );
    expect(count).toBe(6);
  });

  it('campaign/campaign.ts personalises each message from the recipient profile: the job view shows what each one received', async () => {
    for (const [id, first_name] of [
      ['fan_0', 'Amélie'],
      ['fan_1', null],
    ] as const) {
      expect(
        (
          await app.http
            .post('/v1/subscribers')
            .set('X-Api-Key', project.key)
            .send({ id, email: `${id}@example.com`, first_name })
        ).status,
      ).toBeLessThan(300);
    }
    const options = {
      url: app.url,
      apiKey: project.key,
      campaignId: 'hello-fans',
      subscribers: ['fan_0', 'fan_1'],
      subject: 'News for {{first_name}}',
      body: 'Hi {{first_name | default: "there"}}, everything is 30 % off.',
    };
    expect(await sendCampaign(options)).toMatchObject({ calls: 1, jobsCreated: 4 });
    const jobs = await app.db.sql(
      `SELECT id, subscriber_id, channel FROM jobs WHERE project_id = $1 AND subscriber_id LIKE 'fan_%' AND channel = 'email' ORDER BY subscriber_id`,
      [project.id],
    );
    const received: string[][] = [];
    for (const job of jobs) {
      const view = await app.http.get(`/v1/jobs/${job.id}?wait=10s`).set('X-Api-Key', project.key);
      expect(view.body.status).toBe('sent');
      received.push([job.subscriber_id, view.body.rendered.subject, view.body.rendered.body]);
    }
    expect(received).toEqual([
      ['fan_0', 'News for Amélie', 'Hi Amélie, everything is 30 % off.'],
      ['fan_1', 'News for ', 'Hi there, everything is 30 % off.'],
    ]);
  });

  it('mcp/mcp.json connects an MCP client to the instance', async () => {
    const config = JSON.parse(readFileSync(join(examples, 'mcp', 'mcp.json'), 'utf8')) as {
      mcpServers: { notifyd: { type: string; url: string; headers: Record<string, string> } };
    };
    const server = config.mcpServers.notifyd;
    expect(server.type).toBe('http');
    // As a client does: expand ${VARIABLES} in headers; point the URL at this instance.
    const headers = Object.fromEntries(
      Object.entries(server.headers).map(([k, v]) => [k, v.replace('${NOTIFYD_ADMIN_API_KEY}', ADMIN_KEY)]),
    );
    const url = new URL(new URL(server.url).pathname, app.url);
    const client = new Client({ name: 'example-config', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['digest', 'send_test', 'list_jobs']));
    } finally {
      await client.close();
    }
  });
});

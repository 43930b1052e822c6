import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectMcp, resultText as text, structured } from './helpers/mcp-client.js';
import { RecordingConnector, RecordingConnectorModule } from './helpers/recording-connector.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const ALLOWED_ORIGIN = 'http://localhost:6274';
const connect = (app: TestApp, key: string | undefined, headers: Record<string, string> = {}) =>
  connectMcp(app.url, key, headers);

describe('MCP over Streamable HTTP (POST /mcp)', () => {
  let app: TestApp;
  let provider: RecordingConnector;
  let admin: Client;
  let project: { id: string; key: string };

  beforeAll(async () => {
    app = await startTestApp({
      env: {
        SMS_PROVIDER: 'recording',
        NOTIFYD_ROLE: 'all',
        WORKER_POLL_INTERVAL_MS: '200',
        MCP_ALLOWED_ORIGINS: ALLOWED_ORIGIN,
      },
      imports: [RecordingConnectorModule],
    });
    provider = app.notifyd.app.get(RecordingConnector);
    project = await app.createProject();
    admin = await connect(app, ADMIN_KEY);
  });
  afterAll(async () => {
    await admin?.close();
    await app?.close();
  });

  it('introduces itself with instructions that start from the digest and end with send_test', async () => {
    expect(admin.getServerVersion()).toMatchObject({ name: 'notifyd' });
    const instructions = admin.getInstructions() ?? '';
    expect(instructions.indexOf('digest')).toBeGreaterThan(-1);
    expect(instructions.indexOf('digest')).toBeLessThan(instructions.indexOf('send_test'));
  });

  it('lists every tool with input and output schemas, a description and honest annotations', async () => {
    const { tools } = await admin.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of [
      'list_jobs',
      'get_job',
      'job_timeline',
      'retry_job',
      'cancel_job',
      'send_test',
      'send',
      'batch',
      'get_batch',
      'list_projects',
      'update_project',
      'list_lanes',
      'pause_lane',
      'resume_lane',
    ]) {
      const tool = byName.get(name);
      expect(tool).toBeDefined();
      expect(tool!.inputSchema.type).toBe('object');
      expect(tool!.outputSchema?.type).toBe('object');
      expect(tool!.description!.length).toBeGreaterThan(40);
    }
    const hints = (name: string) => {
      const a = byName.get(name)!.annotations!;
      return [a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint];
    };
    expect(hints('list_jobs')).toEqual([true, false, true, false]);
    expect(hints('cancel_job')).toEqual([false, true, true, false]);
    expect(hints('send')).toEqual([false, false, false, true]);
    expect(hints('send_test')).toEqual([false, false, false, true]);
    expect(hints('update_project')).toEqual([false, false, true, false]);
    // Inputs are closed: an agent learns at once that an argument does not exist.
    expect(byName.get('get_job')!.inputSchema).toMatchObject({ required: ['id'], additionalProperties: false });
  });

  it('sends and waits, then reads the job and its timeline', async () => {
    provider.reset();
    const sent = await admin.callTool({
      name: 'send',
      arguments: { project_id: project.id, channels: ['sms'], to: '+33600000101', body: 'hello from MCP', wait: '10s' },
    });
    expect(sent.isError).toBe(false);
    const outcome = structured(sent).outcomes[0];
    expect(outcome).toMatchObject({ status: 'sent', final: true, provider: 'recording' });
    expect(provider.messages.map((m) => m.recipient)).toEqual(['+33600000101']);

    const job = await admin.callTool({ name: 'get_job', arguments: { id: outcome.id } });
    expect(structured(job)).toMatchObject({ id: outcome.id, project_id: project.id, status: 'sent', attempts: 1 });
    // Operators see recipients masked.
    expect(structured(job).recipient).not.toBe('+33600000101');

    const timeline = await admin.callTool({ name: 'job_timeline', arguments: { id: outcome.id } });
    expect(structured(timeline).events.map((e: { event: string }) => e.event)).toEqual(
      expect.arrayContaining(['created', 'claimed', 'sent']),
    );

    const listed = await admin.callTool({ name: 'list_jobs', arguments: { project_id: project.id, status: 'sent' } });
    expect(structured(listed).jobs.map((j: { id: string }) => j.id)).toContain(outcome.id);
  });

  it('cancels a scheduled job and retries it, with both actions on its timeline', async () => {
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const sent = await admin.callTool({
      name: 'send',
      arguments: {
        project_id: project.id,
        channels: ['sms'],
        to: '+33600000102',
        body: 'later',
        scheduled_at: later,
        wait: '0s',
      },
    });
    const [id] = structured(sent).job_ids;
    const cancelled = await admin.callTool({ name: 'cancel_job', arguments: { id } });
    expect(cancelled.isError).toBe(false);
    expect(structured(cancelled)).toEqual({ id, cancelled: true });

    const again = await admin.callTool({ name: 'cancel_job', arguments: { id } });
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/only pending or retry jobs can be cancelled/);

    const retried = await admin.callTool({ name: 'retry_job', arguments: { id } });
    expect(structured(retried)).toMatchObject({ id, project_id: project.id });
    const timeline = await admin.callTool({ name: 'job_timeline', arguments: { id } });
    const events = structured(timeline).events as { event: string; actor: string | null }[];
    // Queued through MCP with the admin key: created by mcp; then the two audited actions.
    expect(events.filter((e) => e.actor === 'mcp').map((e) => e.event)).toEqual([
      'created',
      'job.cancelled',
      'job.retried',
    ]);
  });

  it('send_test queues a high-priority test message; batch fans out to subscribers', async () => {
    const test = await admin.callTool({
      name: 'send_test',
      arguments: { project_id: project.id, channel: 'sms', to: '+33600000103', body: 'ping' },
    });
    expect(test.isError).toBe(false);
    expect(structured(test)).toMatchObject({ project_id: project.id, channel: 'sms', status: 'pending' });

    for (const id of ['mcp_a', 'mcp_b']) {
      const res = await app.http
        .post('/v1/subscribers')
        .set('X-Api-Key', project.key)
        .send({ id, phone: `+3360000020${id.endsWith('a') ? 1 : 2}` });
      expect(res.status).toBeLessThan(300);
    }
    const batch = await admin.callTool({
      name: 'batch',
      arguments: {
        project_id: project.id,
        channels: ['sms'],
        subscribers: ['mcp_a', 'mcp_b', 'mcp_ghost'],
        body: 'sale',
        priority: 'bulk',
        idempotency_key: 'mcp-batch-1',
        tags: [{ name: 'campaign', value: 'mcp' }],
      },
    });
    expect(structured(batch)).toEqual({
      batch_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      jobs_created: 2,
      jobs_deduplicated: 0,
      jobs_skipped: 0,
    });
    const got = await admin.callTool({ name: 'get_batch', arguments: { id: structured(batch).batch_id } });
    expect(structured(got)).toMatchObject({
      subscribers: 3,
      jobs_created: 2,
      skipped_by_reason: { unknown_subscriber: 1 },
      jobs: { failed: 0, bounced: 0 },
    });
    // This app runs a worker: the two jobs may be anywhere between queued and sent.
    const jobs = structured(got).jobs;
    expect(jobs.queued + jobs.processing + jobs.sent).toBe(2);
    const replay = await admin.callTool({
      name: 'batch',
      arguments: {
        project_id: project.id,
        channels: ['sms'],
        subscribers: ['mcp_a', 'mcp_b'],
        body: 'sale',
        priority: 'bulk',
        idempotency_key: 'mcp-batch-1',
      },
    });
    expect(structured(replay)).toMatchObject({ jobs_created: 0, jobs_deduplicated: 2 });
  });

  it('lists and updates projects without ever showing a key', async () => {
    const listed = await admin.callTool({ name: 'list_projects', arguments: {} });
    expect(structured(listed).projects.map((p: { id: string }) => p.id)).toContain(project.id);
    expect(JSON.stringify(listed)).not.toContain(project.key);
    const updated = await admin.callTool({
      name: 'update_project',
      arguments: { id: project.id, from_email: 'hello@acme.example', from_name: 'Acme' },
    });
    expect(structured(updated)).toMatchObject({ id: project.id, from_email: 'hello@acme.example', from_name: 'Acme' });
    const bad = await admin.callTool({
      name: 'update_project',
      arguments: { id: project.id, from_email: 'not-an-address' },
    });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/from_email must be an email address/);
  });

  it('pauses and resumes a lane', async () => {
    const paused = await admin.callTool({
      name: 'pause_lane',
      arguments: { lane: 'sms:recording', duration_secs: 600, reason: 'provider incident' },
    });
    expect(paused.isError).toBe(false);
    expect(structured(paused)).toMatchObject({
      lane: 'sms:recording',
      paused: true,
      pause_reason: 'provider incident',
    });
    const lanes = await admin.callTool({ name: 'list_lanes', arguments: {} });
    expect(structured(lanes).lanes.find((l: { lane: string }) => l.lane === 'sms:recording')).toMatchObject({
      paused: true,
    });
    const resumed = await admin.callTool({ name: 'resume_lane', arguments: { lane: 'sms:recording' } });
    expect(structured(resumed)).toMatchObject({ lane: 'sms:recording', paused: false });
    const unknown = await admin.callTool({ name: 'pause_lane', arguments: { lane: 'fax:nobody' } });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/Lane 'fax:nobody' was not found/);
  });

  it('answers bad arguments with a tool error naming the field, not a protocol error', async () => {
    const badId = await admin.callTool({ name: 'get_job', arguments: { id: 'nope' } });
    expect(badId.isError).toBe(true);
    expect(text(badId)).toMatch(/id: must be a job id/);
    const tooMany = await admin.callTool({ name: 'list_jobs', arguments: { limit: 9999 } });
    expect(text(tooMany)).toMatch(/limit: /);
    const extra = await admin.callTool({ name: 'list_projects', arguments: { verbose: true } });
    expect(extra.isError).toBe(true);
    expect(text(extra)).toMatch(/unknown argument\(s\) verbose/);
    const missing = await admin.callTool({
      name: 'get_job',
      arguments: { id: '6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f' },
    });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/not found/);
    const noTool = await admin.callTool({ name: 'drop_database', arguments: {} });
    expect(noTool.isError).toBe(true);
  });

  it('the read-only key sees every tool, the admin-only ones marked, and runs only the read-only ones; a mutating call says which key it needs', async () => {
    const reader = await connect(app, READONLY_KEY);
    try {
      const { tools } = await reader.listTools();
      const all = (await admin.listTools()).tools;
      expect(tools.map((t) => t.name)).toEqual(all.map((t) => t.name));
      const pause = tools.find((t) => t.name === 'pause_lane')!;
      // The SDK's client drops annotation fields it does not know; on the wire the annotation is there.
      const raw = await fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${READONLY_KEY}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      const wire = (
        (await raw.json()) as { result: { tools: { name: string; annotations: Record<string, unknown> }[] } }
      ).result.tools;
      expect(wire.find((t) => t.name === 'pause_lane')!.annotations).toMatchObject({
        readOnlyHint: false,
        requiresAdminKey: true,
      });
      expect(wire.find((t) => t.name === 'list_jobs')!.annotations).toMatchObject({
        readOnlyHint: true,
        requiresAdminKey: false,
      });
      expect(pause._meta).toEqual({ 'notifyd/requires_admin_key': true });
      expect(pause.description).toMatch(/^Needs the admin key \(ADMIN_API_KEY\)/);
      expect(pause.inputSchema.properties).toHaveProperty('lane');
      const reading = tools.find((t) => t.name === 'list_jobs')!;
      expect(reading._meta).toEqual({ 'notifyd/requires_admin_key': false });
      expect(reading.description).not.toMatch(/admin key/);
      // The admin key's listing is not prefixed.
      expect(all.find((t) => t.name === 'pause_lane')!.description).not.toMatch(/^Needs the admin key/);
      const listed = await reader.callTool({ name: 'list_jobs', arguments: {} });
      expect(listed.isError).toBe(false);
      const refused = await reader.callTool({ name: 'pause_lane', arguments: { lane: 'sms:recording' } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/pause_lane changes state; this key is read-only.*admin key/);
      expect(
        structured(await admin.callTool({ name: 'list_lanes', arguments: {} })).lanes.find(
          (l: { lane: string }) => l.lane === 'sms:recording',
        ).paused,
      ).toBe(false);
    } finally {
      await reader.close();
    }
  });

  it('a project key sees only its own project', async () => {
    const other = await app.createProject();
    const mine = await admin.callTool({
      name: 'send',
      arguments: { project_id: project.id, channels: ['sms'], to: '+33600000104', body: 'x', wait: '0s' },
    });
    const myJob = structured(mine).job_ids[0];
    const client = await connect(app, other.key);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['send', 'list_jobs', 'get_job']));
      expect(names).not.toContain('list_projects');
      expect(names).not.toContain('send_test');
      const sent = await client.callTool({
        name: 'send',
        arguments: { channels: ['sms'], to: '+33600000105', body: 'own', wait: '0s' },
      });
      expect(sent.isError).toBe(false);
      const listed = structured(await client.callTool({ name: 'list_jobs', arguments: {} }));
      expect(listed.jobs.map((j: { project_id: string }) => j.project_id)).toEqual([other.id]);
      // Its own recipients are its own data: unmasked.
      expect(listed.jobs[0].recipient).toBe('+33600000105');
      const foreign = await client.callTool({ name: 'get_job', arguments: { id: myJob } });
      expect(foreign.isError).toBe(true);
      expect(text(foreign)).toMatch(/not found/);
      const naming = await client.callTool({ name: 'list_jobs', arguments: { project_id: project.id } });
      expect(text(naming)).toMatch(/cannot act on project/);
      const operatorOnly = await client.callTool({ name: 'list_projects', arguments: {} });
      expect(text(operatorOnly)).toMatch(/project key cannot call it.*admin key/);
    } finally {
      await client.close();
    }
  });

  it('job_timeline shows what was sent: the rendered content for the project key, the subject only for operators', async () => {
    await app.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'mcp_amelie', phone: '+33600000106', first_name: 'Amélie' });
    const sent = await admin.callTool({
      name: 'send',
      arguments: {
        project_id: project.id,
        channels: ['sms'],
        subscriber_id: 'mcp_amelie',
        body: 'Bonjour {{ first_name }}',
        wait: '10s',
      },
    });
    const id = structured(sent).outcomes[0].id;
    const client = await connect(app, project.key);
    try {
      const own = await client.callTool({ name: 'job_timeline', arguments: { id } });
      expect(structured(own).rendered).toMatchObject({ status: 'kept', body: 'Bonjour Amélie' });
      expect(structured(own).events.map((e: { event: string }) => e.event)).toEqual(
        expect.arrayContaining(['created', 'rendered', 'sent']),
      );
      expect(text(own)).toContain('Bonjour Amélie');
    } finally {
      await client.close();
    }
    const operator = await admin.callTool({ name: 'job_timeline', arguments: { id } });
    expect(structured(operator).rendered).toMatchObject({ status: 'kept', body: null });
    expect(text(operator)).not.toContain('Amélie');
  });

  it('refuses a missing or wrong key with 401 and a foreign Origin with 403', async () => {
    const post = (headers: Record<string, string>) =>
      app.http
        .post('/mcp')
        .set({ accept: 'application/json, text/event-stream', ...headers })
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.body.message).toMatch(/Authorization: Bearer/);
    expect((await post({ authorization: 'Bearer wrong-key-0123456789' })).status).toBe(401);
    const foreign = await post({ authorization: `Bearer ${ADMIN_KEY}`, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toMatch(/MCP_ALLOWED_ORIGINS/);
    await expect(connect(app, undefined)).rejects.toThrow();

    const browser = await connect(app, ADMIN_KEY, { origin: ALLOWED_ORIGIN });
    expect((await browser.listTools()).tools.length).toBeGreaterThan(5);
    await browser.close();
  });

  it('answers GET and DELETE /mcp with 405 and Allow: POST (stateless: no server stream, no session to end)', async () => {
    for (const method of ['get', 'delete'] as const) {
      const res = await app.http[method]('/mcp').set('authorization', `Bearer ${ADMIN_KEY}`);
      expect([method, res.status, res.headers.allow, res.body.error]).toEqual([
        method,
        405,
        'POST',
        'method_not_allowed',
      ]);
      expect(res.body.message).toMatch(/POST \/mcp/);
    }
  });

  it('audits each call with the tool, argument names, outcome and duration, never the values', async () => {
    await admin.callTool({ name: 'list_jobs', arguments: { recipient: '+33600009999', limit: 5 } });
    const rows = await app.db.sql(
      `SELECT actor, action, metadata FROM audit_log WHERE action = 'mcp.list_jobs' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]).toMatchObject({
      actor: 'mcp',
      action: 'mcp.list_jobs',
      metadata: { args: ['recipient', 'limit'], outcome: 'ok', transport: 'http' },
    });
    expect(typeof rows[0].metadata.ms).toBe('number');
    const all = JSON.stringify(await app.db.sql(`SELECT metadata FROM audit_log WHERE action LIKE 'mcp.%'`));
    expect(all).not.toContain('+33600009999');
    expect(all).not.toContain('hello from MCP');
    const denied = await app.db.sql(
      `SELECT actor, metadata FROM audit_log WHERE action = 'mcp.pause_lane' AND actor = 'mcp:readonly'`,
    );
    expect(denied[0].metadata.outcome).toBe('denied');
  });
});

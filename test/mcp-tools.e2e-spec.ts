import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectMcp, resultText as text, structured } from './helpers/mcp-client.js';
import { RecordingConnectorModule } from './helpers/recording-connector.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/** The MCP tools over the digest, suppressions, subscribers, webhooks and workflows. */
describe('MCP tools over the operator surface', () => {
  let app: TestApp;
  let admin: Client;
  let project: { id: string; key: string };

  beforeAll(async () => {
    app = await startTestApp({
      env: {
        SMS_PROVIDER: 'recording',
        NOTIFYD_ROLE: 'all',
        WORKER_POLL_INTERVAL_MS: '200',
        OUTBOUND_ALLOW_LOOPBACK: 'true',
      },
      imports: [RecordingConnectorModule],
    });
    project = await app.createProject();
    admin = await connectMcp(app.url, ADMIN_KEY);
  });
  afterAll(async () => {
    await admin?.close();
    await app?.close();
  });

  it('digest: ranked findings with actions, as Markdown or JSON, for the read-only key too', async () => {
    const reader = await connectMcp(app.url, READONLY_KEY);
    try {
      const markdown = await reader.callTool({ name: 'digest', arguments: { window: '1h' } });
      expect(markdown.isError).toBe(false);
      expect(text(markdown)).toMatch(/^#/m);
      const report = structured(markdown);
      expect(report.window).toBe('1h');
      expect(report.findings.length).toBeGreaterThan(0);
      for (const finding of report.findings)
        expect(finding).toEqual(
          expect.objectContaining({
            severity: expect.any(String),
            code: expect.any(String),
            action: expect.any(String),
          }),
        );
      const json = await reader.callTool({ name: 'digest', arguments: { format: 'json' } });
      expect(JSON.parse(text(json))).toMatchObject({ window: '24h', summary: expect.any(Object) });
      const bad = await reader.callTool({ name: 'digest', arguments: { window: '2y' } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/window: /);
    } finally {
      await reader.close();
    }
  });

  it('suppressions: add (idempotent), list masked for operators, release', async () => {
    const added = await admin.callTool({
      name: 'add_suppression',
      arguments: { project_id: project.id, address: 'Jane.Doe@Example.com', detail: 'asked by phone' },
    });
    expect(added.isError).toBe(false);
    const row = structured(added);
    expect(row).toMatchObject({
      project_id: project.id,
      channel: 'email',
      scope: 'all',
      reason: 'manual',
      created: true,
    });
    expect(row.address).not.toContain('jane.doe');
    const again = await admin.callTool({
      name: 'add_suppression',
      arguments: { project_id: project.id, address: 'jane.doe@example.com' },
    });
    expect(structured(again)).toMatchObject({ id: row.id, created: false });

    const listed = await admin.callTool({ name: 'list_suppressions', arguments: { project_id: project.id } });
    expect(structured(listed).suppressions.map((s: { id: string }) => s.id)).toEqual([row.id]);
    // The project itself reads its own list unmasked.
    const own = await connectMcp(app.url, project.key);
    expect(structured(await own.callTool({ name: 'list_suppressions', arguments: {} })).suppressions[0].address).toBe(
      'jane.doe@example.com',
    );
    await own.close();

    const noProject = await admin.callTool({ name: 'list_suppressions', arguments: {} });
    expect(text(noProject)).toMatch(/project_id is required/);

    const released = await admin.callTool({
      name: 'release_suppression',
      arguments: { project_id: project.id, id: row.id },
    });
    expect(structured(released)).toEqual({ id: row.id, released: true });
    expect(
      structured(await admin.callTool({ name: 'list_suppressions', arguments: { project_id: project.id } })).count,
    ).toBe(0);
    const twice = await admin.callTool({
      name: 'release_suppression',
      arguments: { project_id: project.id, id: row.id },
    });
    expect(twice.isError).toBe(true);
  });

  it('subscribers: upsert, get, list (masked for operators), preferences set and honoured', async () => {
    const created = await admin.callTool({
      name: 'upsert_subscriber',
      arguments: {
        project_id: project.id,
        id: 'sub_1',
        email: 'ann@example.com',
        phone: '+33600000401',
        timezone: 'Europe/Paris',
      },
    });
    expect(structured(created)).toEqual({ id: 'sub_1', created: true });
    const updated = await admin.callTool({
      name: 'upsert_subscriber',
      arguments: { project_id: project.id, id: 'sub_1', first_name: 'Ann' },
    });
    expect(structured(updated)).toEqual({ id: 'sub_1', created: false });
    const got = structured(
      await admin.callTool({ name: 'get_subscriber', arguments: { project_id: project.id, id: 'sub_1' } }),
    );
    expect(got).toMatchObject({ id: 'sub_1', first_name: 'Ann', timezone: 'Europe/Paris' });
    expect(got.email).not.toBe('ann@example.com');
    expect(got.phone).not.toBe('+33600000401');
    const page = structured(await admin.callTool({ name: 'list_subscribers', arguments: { project_id: project.id } }));
    expect(page.subscribers.map((s: { id: string }) => s.id)).toContain('sub_1');
    const badPhone = await admin.callTool({
      name: 'upsert_subscriber',
      arguments: { project_id: project.id, id: 'sub_2', phone: 'call me' },
    });
    expect(badPhone.isError).toBe(true);
    expect(text(badPhone)).toMatch(/phone/);
    const missing = await admin.callTool({
      name: 'get_subscriber',
      arguments: { project_id: project.id, id: 'nobody' },
    });
    expect(text(missing)).toMatch(/not found/);

    const set = await admin.callTool({
      name: 'set_preferences',
      arguments: {
        project_id: project.id,
        subscriber_id: 'sub_1',
        preferences: [
          { channel: 'sms', enabled: false },
          { channel: '*', topic: 'tips', enabled: false },
        ],
      },
    });
    expect(structured(set)).toEqual({ subscriber_id: 'sub_1', updated: 2 });
    const prefs = structured(
      await admin.callTool({ name: 'get_preferences', arguments: { project_id: project.id, subscriber_id: 'sub_1' } }),
    );
    expect(prefs.preferences).toHaveLength(2);
    expect(prefs.preferences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ channel: 'sms', enabled: false }),
        expect.objectContaining({ channel: '*', topic: 'tips', enabled: false }),
      ]),
    );
    // The opt-out is honoured: an SMS to sub_1 is skipped.
    const skipped = await admin.callTool({
      name: 'send',
      arguments: { project_id: project.id, channels: ['sms'], subscriber_id: 'sub_1', body: 'promo', wait: '0s' },
    });
    expect(skipped.isError).toBe(true);
    expect(structured(skipped).skipped[0]).toMatchObject({ channel: 'sms' });
    const badChannel = await admin.callTool({
      name: 'set_preferences',
      arguments: {
        project_id: project.id,
        subscriber_id: 'sub_1',
        preferences: [{ channel: 'pigeon', enabled: false }],
      },
    });
    expect(text(badChannel)).toMatch(/channel must be one of/);
  });

  it('subscribers: the read-only key gets data withheld (keys only) and addresses masked; the admin key reads data', async () => {
    const secret = 'https://discord.com/api/webhooks/1/secretsecret';
    await app.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'sub_data', email: 'dana@example.com', phone: '+33600000409', data: { discord_webhook: secret } })
      .expect(200);
    const reader = await connectMcp(app.url, READONLY_KEY);
    try {
      const withheld = {
        id: 'sub_data',
        email: 'd***@example.com',
        phone: '***0409',
        data: {},
        withheld_data_keys: ['discord_webhook'],
      };
      const got = await reader.callTool({
        name: 'get_subscriber',
        arguments: { project_id: project.id, id: 'sub_data' },
      });
      expect(structured(got)).toMatchObject(withheld);
      expect(structured(got).data).toEqual({});
      const page = await reader.callTool({
        name: 'list_subscribers',
        arguments: { project_id: project.id, q: 'sub_data' },
      });
      expect(structured(page).subscribers).toEqual([expect.objectContaining(withheld)]);
      expect(structured(page).subscribers[0].data).toEqual({});
      expect(JSON.stringify([got, page])).not.toMatch(/secretsecret|dana@|600000409/);
      await app.http
        .post('/v1/templates')
        .set('X-Api-Key', project.key)
        .send({ id: 'profile_probe', channel: 'sms', body: '{{ subscriber.data.discord_webhook }}' })
        .expect(200);
      const probe = { project_id: project.id, id: 'profile_probe', subscriber_id: 'sub_data' };
      const rendered = await reader.callTool({ name: 'preview_template', arguments: probe });
      expect(rendered.isError).toBe(true);
      expect(text(rendered)).toMatch(/subscriber_id.*admin key/);
      expect(JSON.stringify(rendered)).not.toMatch(/secretsecret/);
      expect(structured(await admin.callTool({ name: 'preview_template', arguments: probe })).body).toBe(secret);
      await app.http.delete('/v1/templates/profile_probe').set('X-Api-Key', project.key).expect(200);
    } finally {
      await reader.close();
    }
    const full = structured(
      await admin.callTool({ name: 'get_subscriber', arguments: { project_id: project.id, id: 'sub_data' } }),
    );
    expect(full).toMatchObject({ email: 'd***@example.com', data: { discord_webhook: secret } });
    expect(full).not.toHaveProperty('withheld_data_keys');
  });

  it('webhooks: lists endpoints and their delivery log', async () => {
    const hook = await app.http
      .post('/v1/webhooks')
      .set('X-Api-Key', project.key)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(hook.status).toBe(201);
    await app.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], to: '+33600000402', body: 'hi', wait: '5s' });

    const listed = await admin.callTool({ name: 'list_webhooks', arguments: { project_id: project.id } });
    expect(structured(listed).webhooks).toEqual([
      expect.objectContaining({
        id: hook.body.id,
        url: 'http://127.0.0.1:9/hook',
        enabled: true,
        consecutive_failures: expect.any(Number),
        paused_until: null,
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(hook.body.secret);

    const log = await admin.callTool({ name: 'webhook_deliveries', arguments: { webhook_id: hook.body.id } });
    expect(log.isError).toBe(false);
    const deliveries = structured(log).deliveries;
    expect(deliveries.map((d: { event_type: string }) => d.event_type)).toEqual(expect.arrayContaining(['job.queued']));
    const redeliver = await admin.callTool({
      name: 'redeliver_webhook',
      arguments: { webhook_id: hook.body.id, delivery_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(redeliver.isError).toBe(true);

    const other = await app.createProject();
    const stranger = await connectMcp(app.url, other.key);
    const foreign = await stranger.callTool({ name: 'webhook_deliveries', arguments: { webhook_id: hook.body.id } });
    expect(foreign.isError).toBe(true);
    expect(text(foreign)).toMatch(/not found/);
    await stranger.close();
  });

  it('workflows: list, trigger (idempotent), list runs, cancel a waiting run', async () => {
    const defined = await app.http
      .post('/v1/workflows')
      .set('X-Api-Key', project.key)
      .send({
        id: 'onboarding',
        name: 'Onboarding',
        trigger_event: 'user.signed_up',
        steps: [
          { type: 'delay', duration_secs: 3600 },
          { type: 'send', channel: 'sms', body: 'Welcome' },
        ],
      });
    expect(defined.status).toBe(200);
    const workflows = structured(
      await admin.callTool({ name: 'list_workflows', arguments: { project_id: project.id } }),
    );
    expect(workflows.workflows.map((w: { id: string }) => w.id)).toEqual(['onboarding']);

    const triggered = await admin.callTool({
      name: 'trigger_workflow',
      arguments: {
        project_id: project.id,
        event: 'user.signed_up',
        subscriber_id: 'sub_1',
        idempotency_key: 'signup-sub_1',
      },
    });
    const [runId] = structured(triggered).workflow_runs;
    expect(structured(triggered).deduplicated).toBe(false);
    const replay = await admin.callTool({
      name: 'trigger_workflow',
      arguments: {
        project_id: project.id,
        event: 'user.signed_up',
        subscriber_id: 'sub_1',
        idempotency_key: 'signup-sub_1',
      },
    });
    expect(structured(replay)).toEqual({ workflow_runs: [runId], deduplicated: true });

    const runs = structured(
      await admin.callTool({
        name: 'list_workflow_runs',
        arguments: { project_id: project.id, workflow_id: 'onboarding' },
      }),
    );
    expect(runs.runs.map((r: { id: string }) => r.id)).toEqual([runId]);
    const cancelled = await admin.callTool({
      name: 'cancel_workflow_run',
      arguments: { project_id: project.id, id: runId },
    });
    expect(cancelled.isError).toBe(false);
    const after = structured(
      await admin.callTool({
        name: 'list_workflow_runs',
        arguments: { project_id: project.id, workflow_id: 'onboarding' },
      }),
    );
    expect(after.runs[0].status).toBe('cancelled');
  });

  it('templates: upsert, list, preview, then send with it', async () => {
    const saved = await admin.callTool({
      name: 'upsert_template',
      arguments: {
        project_id: project.id,
        id: 'order_shipped',
        channel: 'sms',
        body: 'Order {{ order_id }} is on its way',
      },
    });
    expect(structured(saved)).toMatchObject({ id: 'order_shipped', channel: 'sms', created: true });
    const broken = await admin.callTool({
      name: 'upsert_template',
      arguments: { project_id: project.id, id: 'broken', channel: 'sms', body: '{% if x %}never closed' },
    });
    expect(broken.isError).toBe(true);
    expect(text(broken)).toMatch(/Liquid/);
    const listed = await admin.callTool({ name: 'list_templates', arguments: { project_id: project.id } });
    expect(structured(listed).templates.map((t: { id: string }) => t.id)).toEqual(['order_shipped']);
    const preview = await admin.callTool({
      name: 'preview_template',
      arguments: { project_id: project.id, id: 'order_shipped', vars: { order_id: 'A-7' } },
    });
    expect(structured(preview)).toMatchObject({ channel: 'sms', body: 'Order A-7 is on its way' });
    const sent = await admin.callTool({
      name: 'send',
      arguments: {
        project_id: project.id,
        channels: ['sms'],
        to: '+33600000403',
        template: 'order_shipped',
        vars: { order_id: 'A-8' },
        wait: '10s',
      },
    });
    expect(structured(sent).outcomes[0]).toMatchObject({ status: 'sent' });
  });

  it('list_templates pages by cursor (next_cursor), as GET /v1/templates does; a forged cursor or cursor with offset is refused', async () => {
    const other = await app.createProject();
    for (const id of ['alpha', 'bravo', 'charlie']) {
      const saved = await admin.callTool({
        name: 'upsert_template',
        arguments: { project_id: other.id, id, channel: 'sms', body: `${id} body` },
      });
      expect(saved.isError).toBe(false);
    }
    const first = structured(
      await admin.callTool({ name: 'list_templates', arguments: { project_id: other.id, limit: 2 } }),
    );
    expect(first.templates.map((t: { id: string }) => t.id)).toEqual(['alpha', 'bravo']);
    expect(first.total).toBe(3);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = structured(
      await admin.callTool({
        name: 'list_templates',
        arguments: { project_id: other.id, limit: 2, cursor: first.next_cursor },
      }),
    );
    expect(second.templates.map((t: { id: string }) => t.id)).toEqual(['charlie']);
    expect(second.next_cursor).toBeNull();
    const forged = await admin.callTool({
      name: 'list_templates',
      arguments: { project_id: other.id, cursor: 'not-a-cursor' },
    });
    expect(forged.isError).toBe(true);
    expect(text(forged)).toMatch(/cursor/);
    const both = await admin.callTool({
      name: 'list_templates',
      arguments: { project_id: other.id, cursor: first.next_cursor, offset: 1 },
    });
    expect(both.isError).toBe(true);
    expect(text(both)).toMatch(/cursor or offset/);
  });
});

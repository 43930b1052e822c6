import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebhookDeliveryWorker } from '../src/webhooks/delivery/webhook-delivery.worker.js';
import { WorkflowEngine } from '../src/workflows/engine/workflow-engine.js';
import { connectMcp, resultText as text, structured } from './helpers/mcp-client.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Issue 23: the MCP tools for what projects and operators did only over REST (caps, send
 * windows, push devices, inbox, audit log, segments, webhook endpoints, workflows, projects,
 * templates and subscribers deleted, subscriber tokens revoked, the digest sent, credentials
 * resealed, project keys and webhook secrets rotated, one delivery, run or suppression read, the
 * channel report).
 * Each is called over the real POST /mcp; its effect is read back through REST or the database.
 */
describe('MCP tools with REST parity', () => {
  let app: TestApp;
  let admin: Client;
  let reader: Client;
  let asA: Client;
  let a: { id: string; key: string };
  let b: { id: string; key: string };

  const call = (client: Client, name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args });
  const rest = (key: string) => ({
    get: (path: string) => app.http.get(path).set('X-Api-Key', key),
    post: (path: string, body: object) => app.http.post(path).set('X-Api-Key', key).send(body),
    put: (path: string, body: object) => app.http.put(path).set('X-Api-Key', key).send(body),
  });
  /** A refused call: a tool result with isError whose text matches. */
  const refused = async (client: Client, name: string, args: Record<string, unknown>, message: RegExp) => {
    const result = await call(client, name, args);
    expect([name, result.isError]).toEqual([name, true]);
    expect(text(result)).toMatch(message);
  };

  beforeAll(async () => {
    app = await startTestApp({
      env: { OUTBOUND_ALLOW_LOOPBACK: 'true', NOTIFYD_SECRET_KEY: randomBytes(32).toString('base64') },
    });
    a = await app.createProject();
    b = await app.createProject();
    admin = await connectMcp(app.url, ADMIN_KEY);
    reader = await connectMcp(app.url, READONLY_KEY);
    asA = await connectMcp(app.url, a.key);
    for (const p of [a, b])
      expect(
        (await rest(p.key).post('/v1/subscribers', { id: 'u1', email: 'u1@example.com', locale: 'fr' })).status,
      ).toBeLessThan(300);
  });
  afterAll(async () => {
    for (const client of [admin, reader, asA]) await client?.close();
    await app?.close();
  });

  it('lists every new tool with honest annotations; the read-only key sees the admin-only ones marked, a project key only project tools', async () => {
    // [readOnly, destructive, idempotent, openWorld], and whether the tool needs the admin key.
    const expected: Record<string, [boolean, boolean, boolean, boolean, boolean]> = {
      list_caps: [true, false, true, false, false],
      set_cap: [false, false, true, false, true],
      delete_cap: [false, true, true, false, true],
      get_send_window: [true, false, true, false, false],
      set_send_window: [false, false, true, false, true],
      delete_send_window: [false, true, true, false, true],
      list_push_tokens: [true, false, true, false, false],
      register_push_token: [false, false, true, false, true],
      delete_push_token: [false, true, true, false, true],
      list_inbox: [true, false, true, false, false],
      update_inbox_message: [false, false, true, false, true],
      mark_inbox_all: [false, false, true, false, true],
      list_audit_log: [true, false, true, false, true],
      preview_segment: [true, false, true, false, false],
      create_webhook: [false, false, false, false, true],
      update_webhook: [false, false, true, false, true],
      delete_webhook: [false, true, true, false, true],
      upsert_workflow: [false, false, true, false, true],
      delete_workflow: [false, true, true, false, true],
      create_project: [false, false, false, false, true],
      delete_project: [false, true, true, false, true],
      delete_template: [false, true, true, false, true],
      delete_subscriber: [false, true, true, false, true],
      revoke_subscriber_tokens: [false, true, true, false, true],
      notify_digest: [false, false, false, true, true],
      reseal_project_providers: [false, false, true, false, true],
      rotate_project_key: [false, true, false, false, true],
      revoke_secondary_key: [false, true, true, false, true],
      rotate_webhook_secret: [false, true, false, false, true],
      get_webhook_delivery: [true, false, true, false, false],
      get_workflow_run: [true, false, true, false, false],
      get_suppression: [true, false, true, false, false],
      list_channels: [true, false, true, false, false],
    };
    const operatorOnly = [
      'create_project',
      'delete_project',
      'list_audit_log',
      'notify_digest',
      'reseal_project_providers',
      'rotate_project_key',
      'revoke_secondary_key',
    ];
    const listed = new Map((await reader.listTools()).tools.map((t) => [t.name, t]));
    for (const [name, [readOnly, destructive, idempotent, openWorld, admin]] of Object.entries(expected)) {
      const tool = listed.get(name);
      const ann = tool?.annotations as Record<string, unknown> | undefined;
      // The SDK's client drops annotation fields it does not know (requiresAdminKey): _meta carries it.
      expect([
        name,
        ann?.readOnlyHint,
        ann?.destructiveHint,
        ann?.idempotentHint,
        ann?.openWorldHint,
        tool?._meta?.['notifyd/requires_admin_key'],
      ]).toEqual([name, readOnly, destructive, idempotent, openWorld, admin]);
      expect([name, tool!.description!.startsWith('Needs the admin key')]).toEqual([name, admin]);
      expect(tool!.outputSchema).toBeDefined();
    }
    const projectTools = new Set((await asA.listTools()).tools.map((t) => t.name));
    expect(operatorOnly.filter((n) => projectTools.has(n))).toEqual([]);
    expect(Object.keys(expected).filter((n) => !operatorOnly.includes(n) && !projectTools.has(n))).toEqual([]);
  });

  it('caps: set, list and delete through MCP as through /v1/caps, scoped to the key’s project', async () => {
    const set = await call(asA, 'set_cap', { channel: 'email', max_messages: 3, window_seconds: 86_400 });
    expect(set.isError).toBe(false);
    const cap = structured(set).cap;
    expect(cap).toMatchObject({ channel: 'email', topic: '*', max_messages: 3, window_seconds: 86_400 });
    expect((await rest(a.key).get('/v1/caps')).body.data).toEqual([
      expect.objectContaining({ id: cap.id, max_messages: 3 }),
    ]);
    const again = await call(asA, 'set_cap', { channel: 'email', max_messages: 5, window_seconds: 86_400 });
    expect(structured(again)).toMatchObject({ created: false, cap: { id: cap.id, max_messages: 5 } });

    const listed = await call(admin, 'list_caps', { project_id: a.id });
    expect(structured(listed).caps).toEqual([expect.objectContaining({ id: cap.id })]);
    expect(text(listed)).toContain(`| ${cap.id} | email | * | 5 | 86400 |`);
    expect(structured(await call(admin, 'list_caps', { project_id: b.id })).caps).toEqual([]);

    await refused(
      reader,
      'set_cap',
      { project_id: a.id, max_messages: 1, window_seconds: 60 },
      /read-only.*ADMIN_API_KEY/,
    );
    await refused(asA, 'list_caps', { project_id: b.id }, new RegExp(`belongs to project '${a.id}'`));
    await refused(asA, 'set_cap', { max_messages: 1, window_seconds: 10 }, /window_seconds: .*60/);
    await refused(
      asA,
      'set_cap',
      { channel: 'pigeon', max_messages: 1, window_seconds: 60 },
      /channel must be "\*" or one of/,
    );
    await refused(admin, 'set_cap', { max_messages: 1, window_seconds: 60 }, /project_id is required/);
    await refused(
      admin,
      'set_cap',
      { project_id: 'no-such-project', max_messages: 1, window_seconds: 60 },
      /no-such-project/,
    );
    // B's key cannot delete A's cap: not found, and it stays.
    const asB = await connectMcp(app.url, b.key);
    try {
      await refused(asB, 'delete_cap', { id: cap.id }, /not found/i);
    } finally {
      await asB.close();
    }
    expect((await rest(a.key).get('/v1/caps')).body.data).toHaveLength(1);
    expect(structured(await call(asA, 'delete_cap', { id: cap.id }))).toEqual({ id: cap.id, deleted: true });
    expect((await rest(a.key).get('/v1/caps')).body.data).toEqual([]);
    await refused(asA, 'delete_cap', { id: 'not-a-uuid' }, /^Invalid arguments for delete_cap: id: must be a cap id/);
  });

  it('send window: set, read and remove as /v1/send-window does, with its checks', async () => {
    const set = await call(asA, 'set_send_window', {
      start: '08:00',
      end: '21:00',
      tz: 'Europe/Paris',
      days: [1, 2, 3, 4, 5],
    });
    expect(set.isError).toBe(false);
    expect(structured(set)).toEqual({
      project_id: a.id,
      send_window: { start: '08:00', end: '21:00', tz: 'Europe/Paris', days: [1, 2, 3, 4, 5], applies_to: 'marketing' },
    });
    expect((await rest(a.key).get('/v1/send-window')).body.send_window).toMatchObject({
      start: '08:00',
      tz: 'Europe/Paris',
    });
    expect(text(await call(admin, 'get_send_window', { project_id: a.id }))).toMatch(
      /\| 08:00 \| 21:00 \| Europe\/Paris \|/,
    );
    expect(structured(await call(admin, 'get_send_window', { project_id: b.id })).send_window).toBeNull();

    await refused(asA, 'set_send_window', { start: '8am', end: '21:00' }, /start: must be a 24-hour time/);
    await refused(asA, 'set_send_window', { start: '08:00', end: '21:00', tz: 'Mars/Olympus' }, /tz/);
    await refused(reader, 'delete_send_window', { project_id: a.id }, /read-only/);
    await refused(asA, 'delete_send_window', { project_id: b.id }, /cannot act on project/);

    expect(structured(await call(asA, 'delete_send_window', {})).send_window).toBeNull();
    expect((await rest(a.key).get('/v1/send-window')).body.send_window).toBeNull();
  });

  it('push devices: register, list (masked for operators) and delete, scoped to the project', async () => {
    const token = 'fcm-device-token-0123456789abcdef';
    const registered = await call(asA, 'register_push_token', {
      subscriber_id: 'u1',
      token,
      platform: 'fcm',
      device_name: 'Pixel',
    });
    expect(registered.isError).toBe(false);
    const id = structured(registered).id;
    expect(structured(registered)).toMatchObject({ created: true, token: { token, platform: 'fcm' } });
    expect((await rest(a.key).get('/v1/push-tokens/subscriber/u1')).body.tokens).toEqual([
      expect.objectContaining({ id, token }),
    ]);

    const operatorView = await call(admin, 'list_push_tokens', { project_id: a.id, subscriber_id: 'u1' });
    expect(structured(operatorView).tokens).toEqual([expect.objectContaining({ id, token: 'fcm-devi...' })]);
    expect(JSON.stringify(operatorView)).not.toContain(token);
    expect(text(await call(asA, 'list_push_tokens', { subscriber_id: 'u1' }))).toContain(
      `| ${id} | fcm | Pixel | ${token} |`,
    );

    await refused(asA, 'register_push_token', { subscriber_id: 'u1', token: 'x', platform: 'pager' }, /platform: /);
    await refused(asA, 'register_push_token', { subscriber_id: 'nobody', token: 'fcm-x', platform: 'fcm' }, /nobody/);
    await refused(reader, 'register_push_token', { project_id: a.id, subscriber_id: 'u1', token: 'x' }, /read-only/);
    // B's key deleting A's device succeeds as REST does (already gone for B) and removes nothing.
    const asB = await connectMcp(app.url, b.key);
    try {
      expect((await call(asB, 'delete_push_token', { id })).isError).toBe(false);
    } finally {
      await asB.close();
    }
    expect(await app.db.sql(`SELECT id FROM push_tokens WHERE id = $1`, [id])).toHaveLength(1);
    expect(structured(await call(asA, 'delete_push_token', { id }))).toEqual({ id, success: true });
    expect((await rest(a.key).get('/v1/push-tokens/subscriber/u1')).body.tokens).toEqual([]);
  });

  it('inbox: list with counts, mark one message and the whole inbox, as /v1/inbox does', async () => {
    for (const body of ['first', 'second']) {
      expect(
        (await rest(a.key).post('/v1/send', { channels: ['in_app'], subscriber_id: 'u1', subject: body, body })).status,
      ).toBe(200);
      await app.worker.drainOnce();
    }
    const listed = await call(asA, 'list_inbox', { subscriber_id: 'u1' });
    expect(listed.isError).toBe(false);
    const page = structured(listed);
    expect([page.unread_count, page.messages.map((m: { body: string }) => m.body)]).toEqual([2, ['second', 'first']]);
    expect(text(listed)).toMatch(/u1: 2 unread/);
    expect(text(listed)).toMatch(/\| [0-9a-f-]{36} \| .* \| second \| false \|/);

    const [newest] = page.messages;
    const read = await call(asA, 'update_inbox_message', { subscriber_id: 'u1', message_id: newest.id, read: true });
    expect(structured(read)).toMatchObject({ id: newest.id, is_read: true });
    expect((await rest(a.key).get('/v1/inbox/u1/unread-count')).body.unread_count).toBe(1);

    // B's key reads B's u1 (an empty inbox), never A's; naming A's message is not found.
    const asB = await connectMcp(app.url, b.key);
    try {
      expect(structured(await call(asB, 'list_inbox', { subscriber_id: 'u1' })).messages).toEqual([]);
      await refused(
        asB,
        'update_inbox_message',
        { subscriber_id: 'u1', message_id: newest.id, read: false },
        /not found/i,
      );
    } finally {
      await asB.close();
    }
    await refused(
      asA,
      'update_inbox_message',
      { subscriber_id: 'u1', message_id: 'first', read: true },
      /message_id: must be a message id/,
    );
    await refused(
      asA,
      'update_inbox_message',
      { subscriber_id: 'u1', message_id: newest.id, snoozed_until: '2000-01-01T00:00:00Z' },
      /snoozed_until must be in the future/,
    );
    await refused(reader, 'mark_inbox_all', { project_id: a.id, subscriber_id: 'u1', action: 'read' }, /read-only/);
    await refused(asA, 'mark_inbox_all', { subscriber_id: 'u1', action: 'delete' }, /action: /);

    expect(
      structured(await call(admin, 'mark_inbox_all', { project_id: a.id, subscriber_id: 'u1', action: 'archive' })),
    ).toEqual({ subscriber_id: 'u1', action: 'archive', updated: 2 });
    expect((await rest(a.key).get('/v1/inbox/u1')).body.items).toEqual([]);
    expect(structured(await call(asA, 'list_inbox', { subscriber_id: 'u1', archived: 'true' })).messages).toHaveLength(
      2,
    );
  });

  it('segments: preview counts the project’s own subscribers; a bad segment names its part', async () => {
    const fr = await call(asA, 'preview_segment', { segment: { locale: 'fr', has_email: true } });
    expect(structured(fr)).toEqual({ count: 1, sample: ['u1'] });
    expect((await rest(a.key).post('/v1/segments/preview', { locale: 'fr', has_email: true })).body).toEqual({
      count: 1,
      sample: ['u1'],
    });
    expect(structured(await call(admin, 'preview_segment', { project_id: a.id, segment: { locale: 'de' } }))).toEqual({
      count: 0,
      sample: [],
    });
    await refused(
      asA,
      'preview_segment',
      { segment: { where: [{ field: 'password', op: 'eq', value: 'x' }] } },
      /password/,
    );
    await refused(asA, 'preview_segment', { segment: 'everyone' }, /segment: /);
    await refused(asA, 'preview_segment', { project_id: b.id, segment: {} }, /cannot act on project/);
  });

  it('webhook endpoints: create (secret shown once), update and delete, each key on its own project', async () => {
    const created = await call(asA, 'create_webhook', {
      url: 'http://127.0.0.1:9/hook',
      events: ['job.failed'],
      description: 'ops',
    });
    expect(created.isError).toBe(false);
    const { id, secret } = structured(created);
    expect(secret).toMatch(/^whsec_/);
    expect(text(created)).toContain(secret);
    expect((await rest(a.key).get(`/v1/webhooks/${id}`)).body.webhook).toMatchObject({
      id,
      events: ['job.failed'],
      enabled: true,
    });

    const disabled = await call(admin, 'update_webhook', { id, enabled: false });
    expect(structured(disabled)).toMatchObject({ id, project_id: a.id, enabled: false });
    expect((await rest(a.key).get(`/v1/webhooks/${id}`)).body.webhook.enabled).toBe(false);

    await refused(
      asA,
      'create_webhook',
      { url: 'http://127.0.0.1:9/hook', events: ['job.nope'] },
      /events must be one of/,
    );
    await refused(asA, 'create_webhook', { url: 'http://127.0.0.1:9/hook', events: [] }, /events: /);
    await refused(
      reader,
      'create_webhook',
      { project_id: a.id, url: 'http://127.0.0.1:9/hook', events: ['*'] },
      /read-only/,
    );
    await refused(admin, 'create_webhook', { url: 'http://127.0.0.1:9/hook', events: ['*'] }, /project_id is required/);
    const asB = await connectMcp(app.url, b.key);
    try {
      await refused(asB, 'delete_webhook', { id }, /not found/i);
      await refused(asB, 'update_webhook', { id, enabled: true }, /not found/i);
    } finally {
      await asB.close();
    }
    expect(structured(await call(asA, 'delete_webhook', { id }))).toEqual({ id, deleted: true });
    expect((await rest(a.key).get(`/v1/webhooks/${id}`)).status).toBe(404);
  });

  it('workflows: upsert with the same step checks as POST /v1/workflows, and delete', async () => {
    const steps = [
      { type: 'send', channel: 'in_app', body: 'Welcome' },
      { type: 'delay', duration_secs: 3600 },
    ];
    const created = await call(asA, 'upsert_workflow', {
      id: 'welcome',
      name: 'Welcome',
      trigger_event: 'user.signup',
      steps,
    });
    expect(created.isError).toBe(false);
    expect(structured(created)).toMatchObject({
      created: true,
      workflow: { id: 'welcome', trigger_event: 'user.signup', enabled: true },
    });
    expect(text(created)).toMatch(/\| 2 \| delay \| \{"duration_secs":3600\} \|/);
    expect((await rest(a.key).get('/v1/workflows/welcome')).body.workflow.steps).toHaveLength(2);
    expect(
      structured(
        await call(asA, 'upsert_workflow', { id: 'welcome', name: 'Welcome', trigger_event: 'user.signup', steps }),
      ).created,
    ).toBe(false);

    await refused(
      asA,
      'upsert_workflow',
      { id: 'bad', name: 'Bad', trigger_event: 'x', steps: [{ type: 'teleport' }] },
      /teleport|type/,
    );
    await refused(asA, 'upsert_workflow', { id: 'bad', name: 'Bad', trigger_event: 'x', steps: [] }, /steps: /);
    await refused(reader, 'delete_workflow', { project_id: a.id, id: 'welcome' }, /read-only/);
    await refused(asA, 'delete_workflow', { project_id: b.id, id: 'welcome' }, /cannot act on project/);
    await refused(admin, 'delete_workflow', { project_id: b.id, id: 'welcome' }, /not found/i);

    expect(structured(await call(admin, 'delete_workflow', { project_id: a.id, id: 'welcome' }))).toEqual({
      id: 'welcome',
      deleted: true,
    });
    expect((await rest(a.key).get('/v1/workflows/welcome')).status).toBe(404);
  });

  it('projects: create (key shown once, and it works) and delete with confirmation; admin key only', async () => {
    const id = `mcp${process.pid}`;
    const created = await call(admin, 'create_project', { id, name: 'Made by MCP', from_email: 'hello@mcp.example' });
    expect(created.isError).toBe(false);
    const { project, api_key: key } = structured(created);
    expect(project).toMatchObject({
      id,
      name: 'Made by MCP',
      channels: ['email', 'in_app'],
      from_email: 'hello@mcp.example',
    });
    expect(text(created)).toContain(key);
    expect((await rest(key).get('/v1/caps')).status).toBe(200);
    await refused(admin, 'create_project', { id, name: 'Again' }, /already exists/);
    await refused(
      admin,
      'create_project',
      { id: 'Not A Slug', name: 'x' },
      /^Invalid arguments for create_project: id: must be a project id/,
    );
    await refused(admin, 'create_project', { id: 'ok-id', name: 'x', from_email: 'not-an-address' }, /from_email/);
    await refused(reader, 'create_project', { id: 'ro', name: 'x' }, /read-only/);
    await refused(asA, 'delete_project', { id: a.id, confirm: a.id }, /project key cannot call it/);

    await refused(admin, 'delete_project', { id, confirm: 'oops' }, /confirm: must repeat the project id/);
    expect((await app.http.get(`/v1/admin/projects/${id}`).set('X-Api-Key', ADMIN_KEY)).status).toBe(200);
    expect(structured(await call(admin, 'delete_project', { id, confirm: id }))).toEqual({ id, deleted: true });
    expect((await app.http.get(`/v1/admin/projects/${id}`).set('X-Api-Key', ADMIN_KEY)).status).toBe(404);
    expect((await rest(key).get('/v1/caps')).status).toBe(401);
  });

  it('templates and subscribers: delete (one variant or all), revoke a subscriber’s tokens, each on the key’s own project', async () => {
    for (const [channel, locale] of [
      ['email', undefined],
      ['email', 'fr'],
      ['sms', undefined],
    ] as const) {
      expect(
        (await call(asA, 'upsert_template', { id: 'bye', channel, locale, subject: 'Bye', body: 'Bye {{ name }}' }))
          .isError,
      ).toBe(false);
    }
    expect(structured(await call(asA, 'delete_template', { id: 'bye', channel: 'email', locale: 'fr' }))).toEqual({
      id: 'bye',
      deleted: 1,
    });
    const left = (await rest(a.key).get('/v1/templates/bye')).body.variants.map(
      (v: { channel: string; locale: string | null }) => `${v.channel}/${v.locale ?? ''}`,
    );
    expect(left.sort()).toEqual(['email/', 'sms/']);
    await refused(asA, 'delete_template', { id: 'bye', channel: 'pigeon' }, /channel: /);
    await refused(reader, 'delete_template', { project_id: a.id, id: 'bye' }, /read-only/);
    await refused(admin, 'delete_template', { project_id: b.id, id: 'bye' }, /not found/i);
    expect(structured(await call(admin, 'delete_template', { project_id: a.id, id: 'bye' }))).toEqual({
      id: 'bye',
      deleted: 2,
    });
    expect((await rest(a.key).get('/v1/templates/bye')).status).toBe(404);

    expect((await rest(a.key).post('/v1/subscribers', { id: 'leaving' })).status).toBeLessThan(300);
    const minted = await rest(a.key).post('/v1/auth/subscriber-token', { subscriber_id: 'leaving' });
    const inbox = () => app.http.get('/v1/inbox/leaving').set('Authorization', `Bearer ${minted.body.token}`);
    expect((await inbox()).status).toBe(200);
    await refused(reader, 'revoke_subscriber_tokens', { project_id: a.id, id: 'leaving' }, /read-only/);
    await refused(admin, 'revoke_subscriber_tokens', { project_id: b.id, id: 'leaving' }, /not found/i);
    expect(structured(await call(asA, 'revoke_subscriber_tokens', { id: 'leaving' }))).toEqual({
      id: 'leaving',
      revoked: true,
    });
    expect((await inbox()).status).toBe(401);

    await refused(asA, 'delete_subscriber', { project_id: b.id, id: 'leaving' }, /cannot act on project/);
    await refused(asA, 'delete_subscriber', { id: '' }, /^Invalid arguments for delete_subscriber: id: /);
    expect(structured(await call(asA, 'delete_subscriber', { id: 'leaving' }))).toEqual({
      id: 'leaving',
      deleted: true,
    });
    expect((await rest(a.key).get('/v1/subscribers/leaving')).status).toBe(404);
    await refused(asA, 'delete_subscriber', { id: 'leaving' }, /not found/i);
  });

  it('digest notify and credential reseal: operator tools with the admin key only', async () => {
    const sent = await call(admin, 'notify_digest', { to: 'email:ops@example.com', window: '1h' });
    expect(sent.isError).toBe(false);
    expect(structured(sent)).toMatchObject({
      provider: 'log',
      window: '1h',
      summary: { critical: expect.any(Number) },
    });
    expect(
      await app.db.sql(`SELECT action FROM audit_log WHERE action = 'digest.notified' AND actor = 'mcp'`),
    ).toHaveLength(1);
    await refused(admin, 'notify_digest', { to: 'pigeon:coop' }, /to must be slack:/);
    await refused(admin, 'notify_digest', { window: '2y' }, /window: /);
    await refused(reader, 'notify_digest', { to: 'email:ops@example.com' }, /read-only/);
    await refused(asA, 'notify_digest', {}, /project key cannot call it/);

    expect(
      (
        await call(admin, 'set_project_provider', {
          project_id: a.id,
          channel: 'email',
          provider: 'resend',
          settings: { api_key: 're_parity_0123456789' },
        })
      ).isError,
    ).toBe(false);
    // Everything is sealed under the current key already: nothing to redo, nothing unreadable.
    expect(structured(await call(admin, 'reseal_project_providers', {}))).toEqual({ resealed: 0, unreadable: [] });
    await refused(reader, 'reseal_project_providers', {}, /read-only/);
    await refused(admin, 'reseal_project_providers', { now: true }, /unknown argument\(s\) now/);
  });

  it('project keys: rotate (new key shown once, the old one kept as secondary) and revoke the secondary; admin key only', async () => {
    const p = await app.createProject();
    const rotated = await call(admin, 'rotate_project_key', { id: p.id });
    expect(rotated.isError).toBe(false);
    const { new_api_key: key } = structured(rotated);
    expect(structured(rotated)).toMatchObject({ id: p.id, new_api_key: expect.stringMatching(/^sk_/) });
    expect(text(rotated)).toContain(key);
    expect(key).not.toBe(p.key);
    // Both keys work until the secondary is revoked, as after POST …/rotate-key.
    expect([(await rest(key).get('/v1/caps')).status, (await rest(p.key).get('/v1/caps')).status]).toEqual([200, 200]);
    expect(
      await app.db.sql(`SELECT action, actor FROM audit_log WHERE action = 'project.key_rotated' AND resource = $1`, [
        p.id,
      ]),
    ).toEqual([{ action: 'project.key_rotated', actor: 'mcp' }]);

    await refused(
      reader,
      'rotate_project_key',
      { id: p.id },
      /rotate_project_key changes state; this key is read-only/,
    );
    await refused(reader, 'revoke_secondary_key', { id: p.id }, /read-only/);
    await refused(asA, 'rotate_project_key', { id: a.id }, /project key cannot call it/);
    await refused(asA, 'revoke_secondary_key', { id: a.id }, /project key cannot call it/);
    await refused(
      admin,
      'rotate_project_key',
      { id: 'Not A Slug' },
      /^Invalid arguments for rotate_project_key: id: must be a project id/,
    );
    await refused(admin, 'revoke_secondary_key', {}, /^Invalid arguments for revoke_secondary_key: id: /);
    await refused(admin, 'rotate_project_key', { id: 'no-such-project' }, /no-such-project/);
    expect((await rest(p.key).get('/v1/caps')).status).toBe(200);

    expect(structured(await call(admin, 'revoke_secondary_key', { id: p.id }))).toEqual({ id: p.id, revoked: true });
    expect([(await rest(key).get('/v1/caps')).status, (await rest(p.key).get('/v1/caps')).status]).toEqual([200, 401]);
    expect(structured(await call(admin, 'revoke_secondary_key', { id: p.id }))).toEqual({ id: p.id, revoked: true });
    expect((await rest(key).get('/v1/caps')).status).toBe(200);
  });

  it('webhook secret rotation and one delivery with its payload and attempt log, as REST shows them', async () => {
    const hook = await rest(a.key).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(hook.status).toBe(201);
    const id = hook.body.id as string;
    const before = hook.body.webhook.secret_hint;

    const rotated = await call(asA, 'rotate_webhook_secret', { id, overlap_seconds: 3600 });
    expect(rotated.isError).toBe(false);
    const { secret, previous_secret_valid_until: until, webhook } = structured(rotated);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(hook.body.secret);
    expect(text(rotated)).toContain(secret);
    const got = (await rest(a.key).get(`/v1/webhooks/${id}`)).body.webhook;
    expect([got.secret_hint, got.previous_secret_expires_at]).toEqual([webhook.secret_hint, until]);
    expect(got.secret_hint).not.toBe(before);
    expect(Date.parse(until) - Date.now()).toBeGreaterThan(3500_000);
    // An operator rotates any project's endpoint (on the endpoint's own project); 0 ends the overlap.
    const now = structured(await call(admin, 'rotate_webhook_secret', { id, overlap_seconds: 0 }));
    expect(now.previous_secret_valid_until).toBeNull();
    expect((await rest(a.key).get(`/v1/webhooks/${id}`)).body.webhook).toMatchObject({
      secret_hint: now.webhook.secret_hint,
      previous_secret_expires_at: null,
    });

    await refused(
      reader,
      'rotate_webhook_secret',
      { id },
      /rotate_webhook_secret changes state; this key is read-only/,
    );
    await refused(
      asA,
      'rotate_webhook_secret',
      { id, overlap_seconds: 700_000 },
      /^Invalid arguments for rotate_webhook_secret: overlap_seconds: /,
    );
    await refused(asA, 'rotate_webhook_secret', { project_id: b.id, id }, /cannot act on project/);
    const asB = await connectMcp(app.url, b.key);
    try {
      await refused(asB, 'rotate_webhook_secret', { id }, /not found/i);
      expect((await rest(a.key).get(`/v1/webhooks/${id}`)).body.webhook.secret_hint).toBe(now.webhook.secret_hint);

      // A message sent raises events; the delivery worker tries the (closed) port once.
      expect(
        (await rest(a.key).post('/v1/send', { channels: ['in_app'], subscriber_id: 'u1', body: 'for the hook' }))
          .status,
      ).toBe(200);
      await app.worker.drainOnce();
      await app.notifyd.app.get(WebhookDeliveryWorker).drainOnce();
      const [row] = await app.db.sql(
        `SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND attempts > 0 ORDER BY created_at LIMIT 1`,
        [id],
      );
      expect(row).toBeDefined();
      const deliveryId = row.id as string;

      const one = await call(asA, 'get_webhook_delivery', { webhook_id: id, delivery_id: deliveryId });
      expect(one.isError).toBe(false);
      const viaRest = (await rest(a.key).get(`/v1/webhooks/${id}/deliveries/${deliveryId}`)).body.delivery;
      expect(structured(one)).toEqual(viaRest);
      expect(viaRest.attempt_log).toHaveLength(1);
      expect(viaRest.payload).toEqual(expect.objectContaining({ type: expect.any(String) }));
      expect(text(one)).toMatch(/\| attempt \| at \| status_code \| duration_ms \| error \|/);
      expect(text(one)).toMatch(/\| 1 \| \S+ \| — \| \d+ \|/);
      // Operators (the read-only key too) read any project's delivery.
      expect(
        structured(await call(reader, 'get_webhook_delivery', { webhook_id: id, delivery_id: deliveryId })),
      ).toEqual(viaRest);

      await refused(asB, 'get_webhook_delivery', { webhook_id: id, delivery_id: deliveryId }, /not found/i);
      await refused(
        asA,
        'get_webhook_delivery',
        { project_id: b.id, webhook_id: id, delivery_id: deliveryId },
        /cannot act on project/,
      );
      await refused(
        asA,
        'get_webhook_delivery',
        { webhook_id: id, delivery_id: '' },
        /^Invalid arguments for get_webhook_delivery: delivery_id: /,
      );
      await refused(asA, 'get_webhook_delivery', { webhook_id: id, delivery_id: 'nope' }, /not found|nope/i);
    } finally {
      await asB.close();
    }
    expect(structured(await call(asA, 'delete_webhook', { id }))).toEqual({ id, deleted: true });
  });

  it('one workflow run with its payload and step history, as GET /v1/workflows/runs/:id', async () => {
    expect(
      (
        await call(asA, 'upsert_workflow', {
          id: 'hello',
          name: 'Hello',
          trigger_event: 'user.hello',
          steps: [{ type: 'send', channel: 'in_app', body: 'Hello' }],
        })
      ).isError,
    ).toBe(false);
    const triggered = await rest(a.key).post('/v1/workflows/trigger', {
      event: 'user.hello',
      subscriber_id: 'u1',
      payload: { plan: 'pro' },
    });
    const [runId] = triggered.body.workflow_runs as string[];
    expect(await app.notifyd.app.get(WorkflowEngine).drainOnce()).toBe(1);

    const got = await call(asA, 'get_workflow_run', { id: runId });
    expect(got.isError).toBe(false);
    const viaRest = (await rest(a.key).get(`/v1/workflows/runs/${runId}`)).body.run;
    expect(structured(got)).toEqual(viaRest);
    expect(viaRest).toMatchObject({
      status: 'completed',
      payload: { plan: 'pro' },
      history: [expect.objectContaining({ step: 0, type: 'send', result: 'sent' })],
    });
    expect(text(got)).toMatch(/\| 0 \| send \| \S+ \| sent \| \["[0-9a-f-]{36}"\] \|/);
    // The list shows where runs stand, not their history: the single read is the only way to it.
    const listed = structured(await call(asA, 'list_workflow_runs', { workflow_id: 'hello' })).runs;
    expect(listed).toEqual([expect.not.objectContaining({ history: expect.anything() })]);
    expect(structured(await call(reader, 'get_workflow_run', { project_id: a.id, id: runId }))).toEqual(viaRest);

    await refused(admin, 'get_workflow_run', { id: runId }, /project_id is required/);
    await refused(admin, 'get_workflow_run', { project_id: b.id, id: runId }, /not found/i);
    await refused(asA, 'get_workflow_run', { project_id: b.id, id: runId }, /cannot act on project/);
    await refused(
      asA,
      'get_workflow_run',
      { id: 'hello' },
      /^Invalid arguments for get_workflow_run: id: must be a run id/,
    );
  });

  it('one suppression by id: unmasked for its project key, masked for operators as the admin routes', async () => {
    const added = structured(
      await call(asA, 'add_suppression', { address: 'gone@example.com', detail: 'left the company' }),
    );
    const got = await call(asA, 'get_suppression', { id: added.id });
    expect(got.isError).toBe(false);
    const viaRest = (await rest(a.key).get(`/v1/suppressions/${added.id}`)).body.suppression;
    const mine = structured(got);
    expect(mine).toEqual({
      id: viaRest.id,
      project_id: viaRest.project_id,
      channel: viaRest.channel,
      address: 'gone@example.com',
      scope: viaRest.scope,
      reason: viaRest.reason,
      source: viaRest.source,
      detail: viaRest.detail,
      evidence: viaRest.evidence,
      source_job_id: viaRest.source_job_id,
      provider_event_id: viaRest.provider_event_id,
      created_at: viaRest.created_at,
      released_at: null,
      released_by: null,
      release_reason: null,
    });

    const operator = await call(reader, 'get_suppression', { project_id: a.id, id: added.id });
    const masked = (
      await app.http.get(`/v1/admin/suppressions?project_id=${a.id}`).set('X-Api-Key', READONLY_KEY)
    ).body.suppressions.find((s: { id: string }) => s.id === added.id);
    expect(structured(operator)).toMatchObject({ id: added.id, address: masked.address, evidence: null });
    expect(JSON.stringify(operator)).not.toContain('gone@');

    await call(asA, 'release_suppression', { id: added.id, reason: 'back' });
    expect(structured(await call(admin, 'get_suppression', { project_id: a.id, id: added.id }))).toMatchObject({
      released_at: expect.any(String),
      release_reason: 'back',
    });
    await refused(admin, 'get_suppression', { id: added.id }, /project_id is required/);
    await refused(admin, 'get_suppression', { project_id: b.id, id: added.id }, /not found/i);
    await refused(asA, 'get_suppression', { project_id: b.id, id: added.id }, /cannot act on project/);
    await refused(
      asA,
      'get_suppression',
      { id: 'gone@example.com' },
      /^Invalid arguments for get_suppression: id: must be a suppression id/,
    );
  });

  it('list_channels: the channel report of GET /v1/channels, for the key’s project or the one an operator names', async () => {
    const got = await call(asA, 'list_channels', {});
    expect(got.isError).toBe(false);
    const viaRest = (await rest(a.key).get('/v1/channels')).body.channels;
    const { project_id, channels } = structured(got);
    expect(project_id).toBe(a.id);
    expect(
      Object.fromEntries(channels.map(({ channel, ...status }: { channel: string }) => [channel, status])),
    ).toEqual(viaRest);
    expect(viaRest.email).toMatchObject({ allowed: true, configured: true });
    expect(text(got)).toMatch(/\| channel \| allowed \| configured \| provider \|/);
    expect(text(got)).toMatch(/\| email \| true \| true \| \S+ \|/);
    expect(structured(await call(reader, 'list_channels', { project_id: a.id }))).toEqual(structured(got));

    await refused(admin, 'list_channels', {}, /project_id is required/);
    await refused(admin, 'list_channels', { project_id: 'no-such-project' }, /no-such-project/);
    await refused(asA, 'list_channels', { project_id: b.id }, /cannot act on project/);
    await refused(
      admin,
      'list_channels',
      { project_id: 'Bad Id' },
      /^Invalid arguments for list_channels: project_id: must be a project id/,
    );
  });

  it('audit log: the admin key reads it (every call above is there); the read-only and project keys are refused, as on REST', async () => {
    const page = await call(admin, 'list_audit_log', { action: 'mcp.set_cap', limit: 2 });
    expect(page.isError).toBe(false);
    const { entries, next_cursor } = structured(page);
    expect(entries).toHaveLength(2);
    expect(entries.every((e: { action: string }) => e.action === 'mcp.set_cap')).toBe(true);
    expect(next_cursor).toEqual(expect.any(String));
    expect(text(page)).toMatch(/\| created_at \| actor \| action \|/);
    const rest1 = await app.http.get('/v1/admin/audit?action=mcp.set_cap&limit=2').set('X-Api-Key', ADMIN_KEY);
    expect(entries.map((e: { id: string }) => e.id)).toEqual(rest1.body.items.map((e: { id: string }) => e.id));
    const next = structured(
      await call(admin, 'list_audit_log', { action: 'mcp.set_cap', limit: 2, cursor: next_cursor }),
    );
    expect(next.entries.every((e: { id: string }) => !entries.some((f: { id: string }) => f.id === e.id))).toBe(true);

    expect((await app.http.get('/v1/admin/audit').set('X-Api-Key', READONLY_KEY)).status).toBe(403);
    await refused(
      reader,
      'list_audit_log',
      {},
      /list_audit_log reads what only the admin key may read; this key is read-only/,
    );
    await refused(asA, 'list_audit_log', {}, /project key cannot call it\. Use the admin key \(ADMIN_API_KEY\)\.$/);
    await refused(admin, 'list_audit_log', { since: 'yesterday' }, /since/);
    await refused(admin, 'list_audit_log', { limit: 501 }, /limit: /);
    await refused(
      admin,
      'list_audit_log',
      { since: '2026-02-01T00:00:00Z', until: '2026-01-01T00:00:00Z' },
      /since must be before until/,
    );
  });
});

import { connectMcp, resultText, structured } from './helpers/mcp-client.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const PM_USER = 'postmark-hooks';
const PM_PASS = 'pm-0123456789abcdef-secret';

interface Message {
  kind: string;
  job_id: string | null;
  channel: string;
  recipient: string;
  status: string;
  verdict: string;
  rule: string | null;
  reason: string;
  provider_message_id: string | null;
  waiting: { holds: string; lane: string | null; reason: string } | null;
  attempt_log: { attempt: number; outcome: string; error: string | null }[];
  attempt_log_omitted?: number;
  provider_events: { kind: string; provider: string }[];
  provider_events_omitted?: number;
  suppression: { reason: string; detail: string | null; source: string; evidence: Record<string, unknown> } | null;
  events: { event: string }[];
}

/**
 * "Why didn't they get it?" on real PostgreSQL: every verdict a recipient's messages can have,
 * told with the evidence that decided it (refusals at enqueue by suppression and by preference,
 * a job waiting on a paused lane, a send bounced by a provider webhook, a failure with the
 * provider's answer), project scoping, masking for operators, and bad input named by field.
 */
describe('recipient trace (GET /v1/admin/trace)', () => {
  let t: TestApp;
  let acme: { id: string; key: string };
  let other: { id: string; key: string };

  beforeAll(async () => {
    // One attempt: the simulator's transient answer fails the job on its first try.
    t = await startTestApp({
      env: { WORKER_MAX_ATTEMPTS: '1', POSTMARK_WEBHOOK_USERNAME: PM_USER, POSTMARK_WEBHOOK_PASSWORD: PM_PASS },
    });
    acme = await t.createProject('acme');
    other = await t.createProject('other');
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = async (key: string, body: object) => {
    const res = await t.http.post('/v1/send').set('X-Api-Key', key).send(body);
    expect(res.status).toBe(200);
    return res.body as { job_ids: string[]; skipped?: { channel: string; reason: string }[] };
  };
  const trace = (key: string, params: Record<string, string | number>) =>
    t.http.get('/v1/admin/trace').query(params).set('X-Api-Key', key);
  const traced = async (key: string, params: Record<string, string | number>) => {
    const res = await trace(key, params);
    expect(res.status).toBe(200);
    return res.body as {
      recipient: {
        addresses: string[];
        subscribers: { id: string; email: string | null }[];
        suppressions: { reason: string }[];
      };
      messages: Message[];
      count: number;
      verdicts: Record<string, number>;
    };
  };
  const refusalRows = async () =>
    Number((await t.db.sql<{ n: string }>(`SELECT count(*) AS n FROM send_refusals`))[0].n);

  it('a send refused by a suppression names the rule and shows the suppression with its evidence; a send that queues everything records no refusal', async () => {
    const suppressed = await t.http
      .post('/v1/admin/suppressions')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ project_id: 'acme', email: 'gone@example.com', detail: 'mailbox does not exist' });
    expect(suppressed.status).toBe(200);
    const before = await refusalRows();
    await send(acme.key, { channels: ['email'], to: 'fine@example.com', subject: 'Hi', body: 'Hello' });
    expect(await refusalRows()).toBe(before);

    const refused = await send(acme.key, {
      channels: ['email'],
      to: 'Gone@Example.com',
      subject: 'Your receipt',
      body: 'Thanks',
    });
    expect(refused.job_ids).toEqual([]);
    expect(await refusalRows()).toBe(before + 1);

    const { messages, recipient } = await traced(acme.key, { recipient: 'gone@example.com' });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      kind: 'refusal',
      job_id: null,
      channel: 'email',
      status: 'refused',
      verdict: 'refused',
      rule: 'suppressed',
    });
    expect(messages[0].reason).toMatch(/suppression list/);
    expect(messages[0].suppression).toMatchObject({
      reason: 'manual',
      source: 'admin',
      detail: expect.stringContaining('mailbox does not exist'),
    });
    expect(recipient.suppressions).toEqual([expect.objectContaining({ reason: 'manual' })]);
  });

  it('a send refused by the subscriber’s preference, traced by subscriber id and by its address', async () => {
    const created = await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', acme.key)
      .send({ id: 'u-pref', email: 'pref@example.com' });
    expect([200, 201]).toContain(created.status);
    const prefs = await t.http
      .put('/v1/subscribers/u-pref/preferences')
      .set('X-Api-Key', acme.key)
      .send({ preferences: [{ channel: 'email', topic: 'tips', enabled: false }] });
    expect(prefs.status).toBe(200);
    const refused = await send(acme.key, {
      channels: ['email'],
      subscriber_id: 'u-pref',
      topic: 'tips',
      subject: 'Tip of the week',
      body: 'Hello',
    });
    expect(refused.job_ids).toEqual([]);

    for (const params of [{ subscriber_id: 'u-pref' }, { recipient: 'pref@example.com' }] as Record<string, string>[]) {
      const body = await traced(acme.key, params);
      expect(body.recipient.subscribers).toEqual([
        expect.objectContaining({ id: 'u-pref', email: 'pref@example.com' }),
      ]);
      expect(body.messages).toEqual([
        expect.objectContaining({ kind: 'refusal', verdict: 'refused', rule: 'opted_out', channel: 'email' }),
      ]);
      expect(body.messages[0].reason).toMatch(/preferences opt out/);
    }
  });

  it('a /v1/batch call leaves its refusals too (the batch answer counts them; the trace names them per recipient)', async () => {
    const res = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', acme.key)
      .send({ channels: ['email', 'sms'], subscribers: ['u-pref'], topic: 'tips', subject: 'Tip', body: 'Hello' });
    expect(res.status).toBe(200);
    expect(res.body.skipped_by_reason).toEqual({ opted_out: 1, no_address: 1 });
    const rows = await t.db.sql<{ rule: string; batch_id: string | null }>(
      `SELECT rule, batch_id FROM send_refusals WHERE subscriber_id = 'u-pref' AND batch_id IS NOT NULL ORDER BY rule`,
    );
    expect(rows.map((r) => r.rule)).toEqual(['no_address', 'opted_out']);
    const { messages } = await traced(acme.key, { subscriber_id: 'u-pref' });
    expect(messages.map((m) => [m.channel, m.rule])).toEqual(
      expect.arrayContaining([
        ['sms', 'no_address'],
        ['email', 'opted_out'],
      ]),
    );
    // Keep the later tests' view of u-pref to its single send.
    await t.db.sql(`DELETE FROM send_refusals WHERE batch_id IS NOT NULL`);
  });

  it('a send bounced by the provider’s webhook after it was sent: sent, then bounced with the webhook’s evidence; a delivered one says delivered', async () => {
    const bounced = (await send(acme.key, { channels: ['email'], to: 'bob@example.com', subject: 'Hi', body: 'Hello' }))
      .job_ids[0];
    const delivered = (
      await send(acme.key, { channels: ['email'], to: 'dee@example.com', subject: 'Hi', body: 'Hello' })
    ).job_ids[0];
    await t.worker.drainOnce();
    const sentBefore = await traced(acme.key, { recipient: 'bob@example.com' });
    expect(sentBefore.messages[0]).toMatchObject({ job_id: bounced, verdict: 'sent' });
    expect(sentBefore.messages[0].reason).toMatch(/no delivery report since/);

    const [{ provider_message_id: bobId }] = await t.db.sql<{ provider_message_id: string }>(
      `SELECT provider_message_id FROM jobs WHERE id = $1`,
      [bounced],
    );
    const [{ provider_message_id: deeId }] = await t.db.sql<{ provider_message_id: string }>(
      `SELECT provider_message_id FROM jobs WHERE id = $1`,
      [delivered],
    );
    const hook = (body: object) =>
      t.http
        .post('/webhooks/postmark')
        .auth(PM_USER, PM_PASS)
        .set('content-type', 'application/json')
        .send(JSON.stringify(body));
    expect(
      (
        await hook({
          RecordType: 'Bounce',
          Type: 'HardBounce',
          TypeCode: 1,
          MessageID: bobId,
          Email: 'bob@example.com',
          Description: 'mailbox not found',
          Inactive: true,
          BouncedAt: new Date().toISOString(),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await hook({
          RecordType: 'Delivery',
          MessageID: deeId,
          Recipient: 'dee@example.com',
          DeliveredAt: new Date().toISOString(),
        })
      ).status,
    ).toBe(200);

    const bob = (await traced(acme.key, { recipient: 'bob@example.com' })).messages[0];
    expect(bob).toMatchObject({ job_id: bounced, status: 'bounced', verdict: 'bounced', provider_message_id: bobId });
    expect(bob.reason).toMatch(/mailbox not found/);
    expect(bob.provider_events).toEqual([expect.objectContaining({ provider: 'postmark', kind: 'bounced' })]);
    expect(bob.events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['created', 'sent', 'provider_bounced', 'bounced']),
    );
    // The bounce suppressed the address: the recipient's evidence shows it.
    expect((await traced(acme.key, { recipient: 'bob@example.com' })).recipient.suppressions).toEqual([
      expect.objectContaining({ reason: 'bounce' }),
    ]);
    expect((await traced(acme.key, { recipient: 'dee@example.com' })).messages[0]).toMatchObject({
      job_id: delivered,
      verdict: 'delivered',
    });
  });

  it('a failed send quotes the provider’s answer and lists the attempt', async () => {
    const id = (
      await send(acme.key, {
        channels: ['email'],
        to: 'transient@simulator.notifyd.test',
        subject: 'Hi',
        body: 'Hello',
      })
    ).job_ids[0];
    await t.worker.drainOnce();
    const [message] = (await traced(acme.key, { recipient: 'transient@simulator.notifyd.test' })).messages;
    expect(message).toMatchObject({ job_id: id, status: 'failed', verdict: 'failed' });
    expect(message.reason).toMatch(/provider's last answer: log simulator: HTTP 503 service unavailable/);
    expect(message.attempt_log).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        counted: true,
        error: expect.stringContaining('log simulator: HTTP 503 service unavailable'),
      }),
    ]);
  });

  it('a job waiting on a paused lane says which lane and until when', async () => {
    const paused = await t.http
      .post('/v1/admin/lanes/email:log/pause')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ duration_secs: 600, reason: 'provider incident' });
    expect(paused.status).toBe(200);
    try {
      const id = (await send(acme.key, { channels: ['email'], to: 'wait@example.com', subject: 'Hi', body: 'Hello' }))
        .job_ids[0];
      await t.worker.drainOnce();
      const [message] = (await traced(acme.key, { recipient: 'wait@example.com' })).messages;
      expect(message).toMatchObject({
        job_id: id,
        status: 'pending',
        verdict: 'waiting',
        waiting: expect.objectContaining({ holds: 'lane_paused', lane: 'email:log' }),
      });
      expect(message.reason).toMatch(/provider incident/);
    } finally {
      expect((await t.http.post('/v1/admin/lanes/email:log/resume').set('X-Api-Key', ADMIN_KEY)).status).toBe(200);
    }
  });

  it('scoping: another project’s key sees nothing and may not name this project; operators (admin and read-only) see any project, masked', async () => {
    expect((await traced(other.key, { recipient: 'gone@example.com' })).messages).toEqual([]);
    expect((await traced(other.key, { subscriber_id: 'u-pref' })).messages).toEqual([]);
    const named = await trace(other.key, { recipient: 'gone@example.com', project_id: 'acme' });
    expect(named.status).toBe(403);
    expect(named.body.message).toMatch(/project_id/);

    for (const key of [ADMIN_KEY, READONLY_KEY]) {
      const body = await traced(key, { recipient: 'bob@example.com' });
      expect(body.messages).toEqual([expect.objectContaining({ verdict: 'bounced' })]);
      expect(body.messages[0].recipient).not.toContain('bob@');
      expect(JSON.stringify(body)).not.toContain('bob@example.com');
    }
    expect((await traced(ADMIN_KEY, { recipient: 'bob@example.com', project_id: 'other' })).messages).toEqual([]);
    // The project key reads its own recipients as they are.
    expect((await traced(acme.key, { recipient: 'bob@example.com' })).messages[0].recipient).toBe('bob@example.com');
  });

  it('bad input is a 4xx naming the field; no key is a 401', async () => {
    const cases: [Record<string, string | number>, RegExp][] = [
      [{}, /recipient or subscriber_id/],
      [{ recipient: 'a@example.com', subscriber_id: 'u1' }, /recipient or subscriber_id/],
      [{ recipient: 'a@example.com', since: 'yesterday' }, /since/],
      [
        { recipient: 'a@example.com', since: '2026-11-30T00:00:00Z', until: '2026-11-01T00:00:00Z' },
        /since must be before until/,
      ],
      [
        { recipient: 'a@example.com', since: '2026-09-01T00:00:00Z', until: '2026-11-01T00:00:00Z' },
        /since: the range may span at most 31 days/,
      ],
      [{ recipient: 'a@example.com', limit: 0 }, /limit/],
      [{ recipient: 'a@example.com', limit: 1000 }, /limit/],
      [{ recipient: 'x'.repeat(400) }, /recipient/],
      [{ subscriber_id: 'has space' }, /subscriber_id/],
    ];
    for (const [params, message] of cases) {
      const res = await trace(acme.key, params);
      expect({ params, status: res.status }).toEqual({ params, status: 422 });
      expect(res.body.message).toMatch(message);
    }
    expect((await t.http.get('/v1/admin/trace').query({ recipient: 'a@example.com' })).status).toBe(401);
    expect(
      (
        await t.http
          .get('/v1/admin/trace')
          .query({ recipient: 'a@example.com' })
          .set('X-Api-Key', 'sk_nope_0000000000000000')
      ).status,
    ).toBe(401);
  });

  it('MCP trace_recipient: the same verdicts through the same service, a bounded table in the text, read-only and scoped', async () => {
    const own = await connectMcp(t.url, acme.key);
    const reader = await connectMcp(t.url, READONLY_KEY);
    const stranger = await connectMcp(t.url, other.key);
    try {
      const tools = await reader.listTools();
      expect(tools.tools.find((tool) => tool.name === 'trace_recipient')?.annotations).toMatchObject({
        readOnlyHint: true,
      });

      const result = await own.callTool({ name: 'trace_recipient', arguments: { recipient: 'gone@example.com' } });
      expect(result.isError).toBe(false);
      expect(structured(result).messages).toEqual([
        expect.objectContaining({
          verdict: 'refused',
          rule: 'suppressed',
          suppression: expect.objectContaining({ reason: 'manual' }),
        }),
      ]);
      expect(resultText(result)).toMatch(/1 message\(s\) for gone@example.com .*: 1 refused\./);
      expect(resultText(result)).toMatch(/\| created_at \| channel \| verdict \| rule \| reason \|/);
      expect(resultText(result)).toMatch(/\| email \| refused \| suppressed \|/);

      const masked = await reader.callTool({ name: 'trace_recipient', arguments: { recipient: 'bob@example.com' } });
      expect(structured(masked).messages).toEqual([expect.objectContaining({ verdict: 'bounced' })]);
      expect(JSON.stringify(structured(masked))).not.toContain('bob@example.com');

      expect(
        structured(await stranger.callTool({ name: 'trace_recipient', arguments: { recipient: 'gone@example.com' } }))
          .messages,
      ).toEqual([]);
      const bad = await own.callTool({
        name: 'trace_recipient',
        arguments: { recipient: 'a@example.com', subscriber_id: 'u1' },
      });
      expect(bad.isError).toBe(true);
      expect(resultText(bad)).toMatch(/recipient or subscriber_id/);
    } finally {
      await Promise.all([own.close(), reader.close(), stranger.close()]);
    }
  });

  it('each job’s attempts and provider events are bounded per job: a job with thousands leaves the others theirs, and says how many it left out', async () => {
    // Two jobs of one recipient. The old read shared one LIMIT 2000 across the trace's jobs in
    // job id order: the job whose id sorts first, given 2100 attempts and 2100 events, left the
    // other none. The rows go in by SQL (a provider cannot be made to answer 2100 times quickly).
    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      ids.push(
        (await send(acme.key, { channels: ['email'], to: 'crowded@example.com', subject: 'Hi', body: 'Hello' }))
          .job_ids[0],
      );
    await t.worker.drainOnce();
    const [crowded, quiet] = [...ids].sort();
    await t.db.sql(
      `INSERT INTO job_attempts (job_id, at, attempt, outcome, counted, provider, error, next_at)
       SELECT $1, now() - interval '1 hour' + g * interval '1 ms', g, 'rate_limited', false, 'log', 'rate limited #' || g, now()
         FROM generate_series(1, 2100) g`,
      [crowded],
    );
    await t.db.sql(
      `INSERT INTO provider_events (provider, event_id, project_id, job_id, event_type, provider_event_type, received_at)
       SELECT 'postmark', 'crowded-open-' || g, 'acme', $1, 'opened', 'Open', now() - interval '1 hour' + g * interval '1 ms'
         FROM generate_series(1, 2100) g`,
      [crowded],
    );
    await t.db.sql(
      `INSERT INTO job_attempts (job_id, attempt, outcome, counted, provider, error) VALUES ($1, 1, 'retry', true, 'log', 'quiet job: HTTP 503')`,
      [quiet],
    );
    await t.db.sql(
      `INSERT INTO provider_events (provider, event_id, project_id, job_id, event_type, provider_event_type)
       VALUES ('postmark', 'quiet-delivery', 'acme', $1, 'delivered', 'Delivery')`,
      [quiet],
    );

    const { messages } = await traced(acme.key, { recipient: 'crowded@example.com' });
    const byJob = new Map(messages.map((m) => [m.job_id, m]));
    const many = byJob.get(crowded)!;
    const few = byJob.get(quiet)!;
    // The other job keeps its evidence, and nothing of it was left out.
    expect(few.attempt_log).toEqual([expect.objectContaining({ outcome: 'retry', error: 'quiet job: HTTP 503' })]);
    expect(few.provider_events).toEqual([expect.objectContaining({ kind: 'delivered', provider: 'postmark' })]);
    expect(few).not.toHaveProperty('attempt_log_omitted');
    expect(few).not.toHaveProperty('provider_events_omitted');
    // The crowded job shows its newest 50 of each, oldest first, and says how many older ones it left out.
    expect(many.attempt_log.map((a) => a.attempt)).toEqual(Array.from({ length: 50 }, (_, i) => 2051 + i));
    expect(many.attempt_log_omitted).toBe(2050);
    expect(many.provider_events).toHaveLength(50);
    expect(many.provider_events_omitted).toBe(2050);

    // trace_recipient carries the same counts (its output schema lists them).
    const mcp = await connectMcp(t.url, acme.key);
    try {
      const result = await mcp.callTool({ name: 'trace_recipient', arguments: { recipient: 'crowded@example.com' } });
      expect(result.isError).toBe(false);
      expect(structured(result).messages).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ job_id: crowded, attempt_log_omitted: 2050, provider_events_omitted: 2050 }),
          expect.objectContaining({ job_id: quiet, attempt_log: [expect.objectContaining({ outcome: 'retry' })] }),
        ]),
      );
    } finally {
      await mcp.close();
    }

    // The count stops at 10 000 a job (TRACE_COUNT_CAP): a job with 12 100 attempts costs the
    // trace 10 000 index entries, and says it left out at least 9 950.
    await t.db.sql(
      `INSERT INTO job_attempts (job_id, at, attempt, outcome, counted, provider, error, next_at)
       SELECT $1, now() - interval '2 hours' + g * interval '1 ms', 2100 + g, 'rate_limited', false, 'log', 'later #' || g, now()
         FROM generate_series(1, 10000) g`,
      [crowded],
    );
    const capped = (await traced(acme.key, { recipient: 'crowded@example.com' })).messages.find(
      (m) => m.job_id === crowded,
    )!;
    expect(capped.attempt_log_omitted).toBe(10_000 - 50);
    expect(capped.attempt_log).toHaveLength(50);
  });

  it('refusals are pruned with the jobs’ retention', async () => {
    await t.db.sql(
      `INSERT INTO send_refusals (project_id, created_at, channel, recipient, rule, detail) VALUES ('acme', now() - interval '30 days', 'email', 'old@example.com', 'suppressed', 'old')`,
    );
    const old = async () =>
      Number(
        (
          await t.db.sql<{ n: string }>(`SELECT count(*) AS n FROM send_refusals WHERE recipient = 'old@example.com'`)
        )[0].n,
      );
    expect(await old()).toBe(1);
    await t.maintenance.purge();
    expect(await old()).toBe(0);
    // Recent refusals stay.
    expect((await traced(acme.key, { recipient: 'gone@example.com' })).messages).toHaveLength(1);
  });
});

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResendFake } from './fakes/resend-fake.js';
import { connectMcp, resultText as text, structured } from './helpers/mcp-client.js';
import { useProviderApp } from './helpers/provider-app.js';
import { READONLY_KEY } from './helpers/test-app.js';

type Call = { tool: string; arguments: Record<string, unknown>; admin: boolean };
type Finding = {
  severity: string;
  code: string;
  message: string;
  action: string;
  owner?: string;
  project_ids?: string[];
  calls?: Call[];
  harm?: Record<string, unknown>;
};

/**
 * The incident of issue 25, scripted: one project's caller sends 25 orders to a misspelt domain
 * that Resend refuses for good (422), then Resend answers 429 with a 20-minute Retry-After, which
 * pauses the (unpaced) email lane and holds every project's email. An agent holding only the
 * read-only key reads the digest and needs at most three more tool calls to name both causes and
 * the exact fix calls.
 */
describe('agent on call: the 429 pause and the misspelt domain', () => {
  const fake = new ResendFake('re_incident_key');
  const app = useProviderApp({
    fakes: [fake],
    env: () => ({
      EMAIL_PROVIDER: 'resend',
      RESEND_API_KEY: 're_incident_key',
      RESEND_BASE_URL: fake.url,
      // No stall here: a long timeout only keeps a cold first call on a loaded CI machine from timing out.
      OUTBOUND_TIMEOUT_MS: '10000',
      EMAIL_FROM: 'orders@acme.example',
      PUBLIC_URL: 'https://notify.acme.example',
    }),
  });
  let shop: { id: string; key: string };
  let blog: { id: string; key: string };
  let agent: Client;
  const held: string[] = [];

  const sendAs = async (key: string, to: string) => {
    const res = await app.t.http
      .post('/v1/send')
      .set('X-Api-Key', key)
      .send({ channels: ['email'], to, subject: 'Your order', body: 'Thanks' });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const hintOf = (key: string) => `${key.slice(0, key.lastIndexOf('_') + 1)}…${key.slice(-4)}`;

  beforeAll(async () => {
    shop = app.project;
    blog = await app.t.createProject('incidentblog');
    // 1. The shop's caller misspells its customers' domain: Resend refuses each address for good.
    fake.script = (to) =>
      to.endsWith('@gmial.con')
        ? { status: 422, name: 'validation_error', message: `The \`to\` address ${to} has an invalid domain.` }
        : 'accept';
    for (let i = 0; i < 25; i++) await sendAs(shop.key, `customer${i}@gmial.con`);
    await app.t.worker.drainOnce();
    // 2. Resend's limit is hit: 429 with Retry-After 1200 s pauses the email lane for everyone.
    fake.script = () => ({
      status: 429,
      name: 'rate_limit_exceeded',
      message: 'Too many requests.',
      headers: { 'retry-after': '1200' },
    });
    for (let i = 0; i < 3; i++) held.push(await sendAs(shop.key, `buyer${i}@customer.example`));
    for (let i = 0; i < 3; i++) held.push(await sendAs(blog.key, `reader${i}@customer.example`));
    await app.t.worker.drainOnce();
    agent = await connectMcp(app.t.url, READONLY_KEY);
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('the digest ranks the pause holding every project first, names both causes, who acts and the exact calls', async () => {
    const result = await agent.callTool({ name: 'digest', arguments: { window: '1h', format: 'markdown' } });
    const report = structured<{ findings: Finding[]; failures: { reason: string }[] }>(result);
    const [first, second] = report.findings;

    // 1. Severity follows harm: 6 messages of 2 projects held for the 20-minute pause outrank 25 lost in one project.
    expect(first).toMatchObject({
      severity: 'critical',
      code: 'lane_paused',
      owner: 'operator',
      harm: { held: 6, projects: 2, channels: ['email'] },
    });
    expect(second).toMatchObject({
      severity: 'warning',
      code: 'failure_rate',
      owner: 'caller',
      project_ids: [shop.id],
    });

    // 2. Actions fit the cause: the lane is unpaced, so no "lower the rate"; the refused domain is the caller's to fix, no retry.
    expect(first.action).toContain('email:resend is unpaced (EMAIL_RATE_PER_SEC=0)');
    expect(first.action).not.toMatch(/lower EMAIL_RATE_PER_SEC/);
    expect(first.calls).toEqual([
      expect.objectContaining({ tool: 'list_lanes', arguments: {}, admin: false }),
      expect.objectContaining({ tool: 'resume_lane', arguments: { lane: 'email:resend' }, admin: true }),
    ]);
    expect(second.action).toContain(`caller of project ${shop.id} must correct the addresses`);
    expect(second.action).not.toContain('retry_job');
    expect(second.calls!.map((c) => c.tool)).not.toContain('retry_job');
    expect(second.calls![0]).toMatchObject({
      tool: 'list_jobs',
      arguments: { project_id: shop.id, status: 'failed', channel: 'email', recipient_domain: 'gmial.con' },
    });

    // 4. The cause keeps Resend's status code and the domain that is wrong.
    expect(report.failures[0].reason).toBe(
      'Resend 422 validation_error: The `to` address <*@gmial.con> has an invalid domain.',
    );

    // The text an agent reads says the same, with the calls.
    const markdown = text(result);
    expect(markdown.indexOf('`lane_paused`')).toBeLessThan(markdown.indexOf('`failure_rate`'));
    expect(markdown).toContain('`resume_lane {"lane":"email:resend"}` (admin key)');
    expect(markdown).toContain('| email:resend | unpaced |');

    // 9. Every call the digest names is a tool the read-only key can see, its admin mark matching the listing.
    const { tools } = await agent.listTools();
    for (const call of report.findings.flatMap((f) => f.calls ?? [])) {
      const tool = tools.find((t) => t.name === call.tool);
      expect(tool).toBeDefined();
      expect(tool!._meta?.['notifyd/requires_admin_key']).toBe(call.admin);
    }
    const refused = await agent.callTool({ name: 'resume_lane', arguments: { lane: 'email:resend' } });
    expect(refused.isError).toBe(true);
  });

  it('three calls confirm both causes: the refused jobs by domain and key, a held job’s timeline, the configuration', async () => {
    // Call 1: the failure finding's own first call, as given.
    const listed = await agent.callTool({
      name: 'list_jobs',
      arguments: { project_id: shop.id, status: 'failed', channel: 'email', recipient_domain: 'gmial.con' },
    });
    const jobs = structured<{ jobs: { recipient: string; created_by: string; error: string }[]; count: number }>(
      listed,
    ).jobs;
    expect(jobs).toHaveLength(25);
    // 7 + 8: masked, the domain stays; the key that queued them is named.
    expect(jobs.every((j) => /^c\*\*\*@gmial\.con$/.test(j.recipient) && j.created_by === hintOf(shop.key))).toBe(true);
    // 5: the text carries the rows (bounded), not only a count.
    const table = text(listed);
    expect(table).toContain('25 job(s): 25 failed.');
    expect(table).toContain(
      '| id | project_id | channel | status | recipient | attempts | provider | created_by | created_at | error |',
    );
    expect(table).toContain(`| failed | c***@gmial.con | 1 | resend | ${hintOf(shop.key)} |`);
    expect(table.split('\n').filter((l) => l.includes('gmial.con')).length).toBe(25);
    // …and jobs can be found by the key that created them.
    const byKey = structured<{ count: number }>(
      await agent.callTool({ name: 'list_jobs', arguments: { created_by: hintOf(blog.key) } }),
    );
    expect(byKey.count).toBe(3);

    // Call 2: a held job's timeline shows the rate-limited attempt (not counted) and what holds it until when.
    const timeline = await agent.callTool({ name: 'job_timeline', arguments: { id: held[0] } });
    const t = structured<{
      status: string;
      events: { event: string; detail: string | null }[];
      waiting: { holds: string; until: string; lane: string };
    }>(timeline);
    expect(t.status).toBe('pending');
    expect(t.events.map((e) => e.event)).toEqual(['created', 'attempt_rate_limited']);
    expect(t.events[1].detail).toMatch(
      /^attempt 1, not counted, resend: rate limited: Resend 429 rate_limit_exceeded: Too many requests\.; due again /,
    );
    expect(t.waiting).toMatchObject({ holds: 'lane_paused', lane: 'email:resend' });
    expect(Date.parse(t.waiting.until) - Date.now()).toBeGreaterThan(1_100_000);
    expect(text(timeline)).toContain(`WAITING (lane_paused until ${t.waiting.until})`);
    expect(text(timeline)).toContain('resume_lane {"lane":"email:resend"}');
    // The REST job views carry the same attempts (the operators' with the read-only key, the project's own).
    for (const [path, key] of [
      [`/v1/admin/jobs/${held[0]}`, READONLY_KEY],
      [`/v1/jobs/${held[0]}`, shop.key],
    ]) {
      const view = await app.t.http.get(path).set('X-Api-Key', key);
      expect(view.status).toBe(200);
      expect(view.body.attempt_log).toEqual([
        expect.objectContaining({
          attempt: 1,
          outcome: 'rate_limited',
          counted: false,
          provider: 'resend',
          error: expect.stringMatching(/^rate limited: Resend 429/),
        }),
      ]);
      expect(Date.parse(view.body.attempt_log[0].next_at)).toBeGreaterThan(Date.parse(view.body.attempt_log[0].at));
    }

    // Call 3: the configuration names the setting the lane action refers to, secrets redacted.
    const config = await agent.callTool({ name: 'get_config', arguments: {} });
    const c = structured<{
      channels: { channel: string; provider: string; rate_per_sec: number; paced: boolean; rate_text: string }[];
      provider_webhooks: { provider: string; configured: boolean }[];
      public_url: string;
    }>(config);
    expect(c.channels.find((x) => x.channel === 'email')).toMatchObject({
      provider: 'resend',
      rate_per_sec: 0,
      paced: false,
      rate_text: 'unpaced',
    });
    expect(c.provider_webhooks.find((w) => w.provider === 'resend')).toMatchObject({ configured: false });
    expect(c.public_url).toBe('https://notify.acme.example');
    expect(text(config)).toContain('| email | resend | — | unpaced |');
    expect(JSON.stringify(c)).not.toContain('re_incident_key');
  });

  it('3. lanes say "unpaced" where a person reads them, keeping the numbers', async () => {
    const lanes = await agent.callTool({ name: 'list_lanes', arguments: {} });
    expect(
      structured<{ lanes: { lane: string; rate: number; paced: boolean; rate_text: string }[] }>(lanes).lanes.find(
        (l) => l.lane === 'email:resend',
      ),
    ).toMatchObject({ rate: 0, paced: false, rate_text: 'unpaced' });
    expect(text(lanes)).toContain('paused: email:resend');
    expect(text(lanes)).toMatch(/\| email:resend \| true \| unpaced \| \S+ \| rate_limited \|/);
  });
});

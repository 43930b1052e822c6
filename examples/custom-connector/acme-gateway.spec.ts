import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PacingService } from '../../src/pacing/pacing.service.js';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { createTestDatabase } from '../../test/helpers/test-database.js';
import AcmeGatewayModule from './acme-gateway.module.js';

/** ACME's gateway, as a local server: records requests, answers per recipient. */
class GatewayFake {
  readonly requests: {
    headers: Record<string, unknown>;
    body: { messages: { id: string; to: string; text: string }[] };
  }[] = [];
  codes = new Map<string, string>();
  httpStatus: number | undefined;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString());
      this.requests.push({ headers: req.headers, body });
      if (req.headers.authorization !== 'Bearer acme-token')
        return void res.writeHead(401).end('{"error":"unauthorized"}');
      if (this.httpStatus)
        return void res.writeHead(this.httpStatus, { 'retry-after': '30' }).end('{"error":"slow down"}');
      const results = body.messages.map((m: { id: string; to: string }) =>
        this.codes.has(m.to)
          ? { id: m.id, status: 'rejected', code: this.codes.get(m.to), reason: 'scripted' }
          : { id: m.id, status: 'accepted', message_id: `acme-${m.id.slice(0, 8)}` },
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((r) => this.server!.close(() => r()));
  }
}

describe('example: a custom connector in its own Nest module (ACME SMS gateway)', () => {
  const gateway = new GatewayFake();
  let url: string;
  let t: TestApp;
  let project: { key: string };

  beforeAll(async () => {
    url = await gateway.start();
    // Registered programmatically, as an embedding application would.
    t = await startTestApp({
      env: { SMS_PROVIDER: 'acme-gateway' },
      imports: [AcmeGatewayModule.forRoot({ url, token: 'acme-token' })],
    });
    project = await t.createProject();
  });
  afterAll(async () => {
    await t.close();
    await gateway.stop();
  });
  beforeEach(async () => {
    gateway.requests.length = 0;
    gateway.codes.clear();
    gateway.httpStatus = undefined;
    await t.notifyd.app.get(PacingService).resume({ channel: 'sms', provider: 'acme-gateway' });
  });

  const send = async (to: string) => {
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], to, body: 'Your code is 1234' });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const job = async (id: string) =>
    (await t.db.sql(`SELECT status, provider, provider_message_id, attempts, error FROM jobs WHERE id = $1`, [id]))[0];

  it('delivers through the gateway in one batch call, with its auth and idempotency key', async () => {
    const a = await send('+33600000001');
    const b = await send('+33600000002');
    await t.worker.drainOnce();
    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0].headers['idempotency-key']).toBe(`${a},${b}`);
    expect(gateway.requests[0].body.messages).toEqual([
      { id: a, to: '+33600000001', text: 'Your code is 1234', priority: 50 },
      { id: b, to: '+33600000002', text: 'Your code is 1234', priority: 50 },
    ]);
    expect(await job(a)).toMatchObject({
      status: 'sent',
      provider: 'acme-gateway',
      provider_message_id: `acme-${a.slice(0, 8)}`,
    });
  });

  it.each([
    { code: 'unknown_number', status: 'failed', attempts: 1 },
    { code: 'blocked', status: 'failed', attempts: 1 },
    { code: 'unavailable', status: 'retry', attempts: 1 },
    { code: 'throttled', status: 'pending', attempts: 0 },
  ])('a per-message $code → job $status', async ({ code, status, attempts }) => {
    const to = `+3361${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    gateway.codes.set(to, code);
    const id = await send(to);
    await t.worker.drainOnce();
    expect(await job(id)).toMatchObject({ status, attempts, error: expect.stringContaining(`acme-gateway ${code}`) });
  });

  it('an HTTP 429 pauses the lane for Retry-After', async () => {
    gateway.httpStatus = 429;
    const id = await send('+33600000009');
    await t.worker.drainOnce();
    expect(await job(id)).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await t.notifyd.app.get(PacingService).pauseOf({ channel: 'sms', provider: 'acme-gateway' }))?.kind).toBe(
      'rate_limited',
    );
  });
});

describe('example: registering the module with NOTIFYD_MODULES', () => {
  it('loads the module named in NOTIFYD_MODULES at boot, its settings from the environment', async () => {
    const gateway = new GatewayFake();
    const url = await gateway.start();
    process.env.ACME_GATEWAY_URL = url;
    process.env.ACME_GATEWAY_TOKEN = 'acme-token';
    const t = await startTestApp({
      env: { SMS_PROVIDER: 'acme-gateway', NOTIFYD_MODULES: './examples/custom-connector/acme-gateway.module.ts' },
    });
    try {
      const project = await t.createProject();
      const res = await t.http
        .post('/v1/send')
        .set('X-Api-Key', project.key)
        .send({ channels: ['sms'], to: '+33600000001', body: 'hi' });
      await t.worker.drainOnce();
      const [row] = await t.db.sql(`SELECT status, provider FROM jobs WHERE id = $1`, [res.body.job_ids[0]]);
      expect(row).toEqual({ status: 'sent', provider: 'acme-gateway' });
      expect(gateway.requests).toHaveLength(1);
    } finally {
      delete process.env.ACME_GATEWAY_URL;
      delete process.env.ACME_GATEWAY_TOKEN;
      await t.close();
      await gateway.stop();
    }
  });

  it('fails start-up with a clear message on a missing module, a module without a Nest module, or missing settings', async () => {
    const db = await createTestDatabase();
    try {
      await expect(
        startTestApp({ database: db, env: { NOTIFYD_MODULES: './examples/custom-connector/nope.js' } }),
      ).rejects.toThrow(/^NOTIFYD_MODULES: cannot load '\.\/examples\/custom-connector\/nope\.js'/);
      await expect(
        startTestApp({
          database: db,
          env: { NOTIFYD_MODULES: './examples/custom-connector/acme-gateway.connector.ts' },
        }),
      ).rejects.toThrow(
        "NOTIFYD_MODULES: './examples/custom-connector/acme-gateway.connector.ts' exports no single Nest module",
      );
      await expect(
        startTestApp({
          database: db,
          env: { SMS_PROVIDER: 'acme-gateway', NOTIFYD_MODULES: './examples/custom-connector/acme-gateway.module.ts' },
        }),
      ).rejects.toThrow('SMS_PROVIDER=acme-gateway needs ACME_GATEWAY_URL');
    } finally {
      await db.drop();
    }
  });
});

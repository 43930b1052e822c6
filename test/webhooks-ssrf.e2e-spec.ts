import type { LookupAddress } from 'node:dns';
import { WebhookDeliveryWorker } from '../src/webhooks/delivery/webhook-delivery.worker.js';
import { WebhookSender } from '../src/webhooks/delivery/webhook-sender.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import { installLoopbackOnlyGuard } from './helpers/loopback-only.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * SSRF on webhook URLs with the production policy (loopback NOT allowed): every private target
 * is refused at registration with a 422, a name that resolves privately too, and a rebinding
 * name (public when registered, loopback when sent) is refused at connect time. A loopback
 * canary must see zero connections; no connection to a non-loopback address is ever attempted.
 */
describe('outbound webhooks: SSRF', () => {
  let t: TestApp;
  let canary: WebhookReceiver;
  let project: { id: string; key: string };
  let guard: ReturnType<typeof installLoopbackOnlyGuard>;
  let answers: string[][] = [];

  beforeAll(async () => {
    guard = installLoopbackOnlyGuard();
    canary = new WebhookReceiver();
    await canary.start();
    t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: 'false' } });
    project = await t.createProject();
    // Host names resolve through this scripted resolver: the next answer in line, then the last one again.
    t.notifyd.app.get(WebhookSender).useResolver(async (): Promise<LookupAddress[]> => {
      const next = answers.length > 1 ? answers.shift()! : answers[0];
      return next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    });
  });
  afterAll(async () => {
    await t.close();
    await canary.stop();
    guard.restore();
  });

  const register = (url: string) =>
    t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', project.key)
      .send({ url, events: ['*'] });

  it('refuses private, loopback, link-local, CGNAT, metadata and non-http targets at registration', async () => {
    const port = canary.port;
    const targets = [
      'http://169.254.169.254/latest/meta-data/',
      `http://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::1]:${port}/`,
      'http://[fd00::1]/',
      'http://10.0.0.5/hook',
      'http://192.168.1.1/hook',
      'http://100.64.0.1/',
      `http://0.0.0.0:${port}/`,
      `http://localhost:${port}/`,
      'file:///etc/passwd',
      'ftp://example.com/hook',
      'http://user:pass@example.com/hook',
    ];
    for (const url of targets) {
      const res = await register(url);
      expect([url, res.status, res.body.error]).toEqual([url, 422, 'unsafe_url']);
    }
    // A loopback refusal names the variable a developer sets for a receiver on their machine.
    const local = await register(`http://127.0.0.1:${port}/hook`);
    expect(local.body.message).toMatch(/OUTBOUND_ALLOW_LOOPBACK=true/);
    expect((await register(`http://localhost:${port}/hook`)).body.message).toMatch(/OUTBOUND_ALLOW_LOOPBACK=true/);
    answers = [['10.1.2.3']];
    const named = await register(`http://internal.test:${port}/`);
    expect(named.status).toBe(422);
    expect(named.body.message).toMatch(
      /internal\.test resolves to a non-public address: 10\.1\.2\.3 is a private address/,
    );
    expect(canary.connections).toBe(0);
    expect(await t.db.sql(`SELECT id FROM webhook_endpoints`)).toEqual([]);
  });

  it('a rebinding name (public when registered, loopback when sent) is refused at connect time and disables the endpoint', async () => {
    answers = [['93.184.216.34'], ['127.0.0.1']];
    const res = await register(`http://rebind.test:${canary.port}/hook`);
    expect(res.status).toBe(201);
    await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], to: 'jane@example.com', body: 'x' });
    const round = await t.notifyd.app.get(WebhookDeliveryWorker).drainOnce();
    expect(round).toMatchObject({ claimed: 1, failed: 1, disabledEndpoints: [res.body.id] });
    const [row] = await t.db.sql(`SELECT status, last_error, attempts FROM webhook_deliveries`);
    expect(row.status).toBe('failed');
    expect(row.last_error).toMatch(
      /^refused before connecting: rebind\.test resolves to a non-public address: 127\.0\.0\.1 is a loopback address/,
    );
    expect(canary.connections).toBe(0);
  });

  it('never attempted a connection to a non-loopback address', () => {
    expect(guard.attempts.filter((host) => !/^(127\.|::1|::ffff:127\.|localhost$|[a-z.-]+\.test$)/.test(host))).toEqual(
      [],
    );
  });
});

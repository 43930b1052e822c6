import type { LookupAddress } from 'node:dns';
import { WebhookDeliveryWorker } from '../../src/webhooks/delivery/webhook-delivery.worker.js';
import { WebhookSender } from '../../src/webhooks/delivery/webhook-sender.js';
import { WebhookReceiver } from '../fakes/webhook-receiver.js';
import { installLoopbackOnlyGuard } from '../helpers/loopback-only.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * IPv6 addresses that carry an IPv4 one. `http://[::127.0.0.1]:PORT/` parses to the host
 * `[::7f00:1]`, which ipaddr.js calls "unicast": the SSRF guard let it through. Every such form
 * is now refused (or judged as the IPv4 address it carries), at registration and at connect
 * time, and with OUTBOUND_ALLOW_LOOPBACK on as well (tests and development run so). A loopback
 * canary must see no connection and no connection to such an address is ever attempted (the
 * test guard would refuse any non-loopback target anyway).
 */
describe('security: SSRF through IPv6 forms that embed an IPv4 address', () => {
  let t: TestApp;
  let canary: WebhookReceiver;
  let project: { id: string; key: string };
  let guard: ReturnType<typeof installLoopbackOnlyGuard>;
  let answer: string[] = [];

  beforeAll(async () => {
    guard = installLoopbackOnlyGuard();
    canary = new WebhookReceiver();
    await canary.start();
    t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: 'true' } });
    project = await t.createProject();
    t.notifyd.app
      .get(WebhookSender)
      .useResolver(async (): Promise<LookupAddress[]> =>
        answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
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

  it('refuses each embedded form at registration with 422, before any connection', async () => {
    const port = canary.port;
    const targets: [string, RegExp][] = [
      [`http://[::127.0.0.1]:${port}/`, /IPv4-compatible/],
      [`http://[::7f00:1]:${port}/`, /IPv4-compatible/],
      [`http://[0:0:0:0:0:0:127.0.0.1]:${port}/`, /IPv4-compatible/],
      [`http://[::a9fe:a9fe]/latest/meta-data/`, /IPv4-compatible/],
      [`http://[64:ff9b::7f00:1]:${port}/`, /NAT64 .*loopback/],
      [`http://[64:ff9b::169.254.169.254]/latest/meta-data/`, /NAT64 .*linkLocal/],
      [`http://[64:ff9b:1::a00:1]/`, /local-use NAT64/],
      [`http://[2002:7f00:1::1]:${port}/`, /6to4/],
      [`http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/`, /teredo/],
      [`http://[2606:4700:1::5efe:7f00:1]:${port}/`, /ISATAP .*loopback/],
      [`http://[fec0::1]/`, /deprecatedSiteLocal/],
    ];
    for (const [url, reason] of targets) {
      const res = await register(url);
      expect([url, res.status, res.body.error]).toEqual([url, 422, 'unsafe_url']);
      expect(res.body.message).toMatch(reason);
    }
    expect(await t.db.sql(`SELECT id FROM webhook_endpoints`)).toEqual([]);
    expect(canary.connections).toBe(0);
  });

  it('refuses a name that resolves to an IPv4-compatible address when the webhook is sent (the canary sees nothing)', async () => {
    answer = ['93.184.216.34'];
    const res = await register(`http://rebind.test:${canary.port}/hook`);
    expect(res.status).toBe(201);
    // What glibc prints for an AAAA record of ::7f00:1.
    answer = ['::127.0.0.1'];
    await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], to: 'jane@example.com', body: 'x' });
    await t.notifyd.app.get(WebhookDeliveryWorker).drainOnce();
    const [row] = await t.db.sql(`SELECT last_error FROM webhook_deliveries ORDER BY created_at DESC LIMIT 1`);
    expect(row.last_error).toMatch(
      /refused before connecting: rebind\.test resolves to a non-public address: .*IPv4-compatible/,
    );
    expect(canary.connections).toBe(0);
  });

  it('never attempted a connection to an IPv6 address embedding an IPv4 one', () => {
    expect(guard.attempts.filter((host) => host.includes(':') && host !== '::1')).toEqual([]);
  });
});

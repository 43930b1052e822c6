import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Notifyd, verifyWebhook, WebhookVerificationError } from '../src/index.js';
import { createProject, NOTIFYD_URL, until } from './harness.js';

describe('webhook verifier', () => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  let url: string;

  before(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notifyd`;
  });
  after(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('verifies a real delivery from notifyd and refuses a tampered one', async () => {
    const project = await createProject();
    const notifyd = new Notifyd({ baseUrl: NOTIFYD_URL, apiKey: project.key });
    const webhook = await notifyd.webhooks.create({ url, events: ['job.sent'] });
    assert.match(webhook.secret, /^whsec_/);
    const sent = await notifyd.send({ to: 'jane@example.com', channels: ['email'], subject: 'Hi', body: 'Hello' });

    const delivery = await until(async () => received.find((r) => r.body.includes(sent.job_ids[0]!)));
    const event = await verifyWebhook<{ type: string; data: { job_id?: string; id?: string } }>({ secret: webhook.secret, headers: delivery.headers, body: delivery.body });
    assert.equal(event.type, 'job.sent');
    assert.ok(JSON.stringify(event.data).includes(sent.job_ids[0]!));
    // With the old secret among others (a rotation on the receiver's side), it still verifies.
    await verifyWebhook({ secret: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', webhook.secret], headers: delivery.headers, body: delivery.body });

    await assert.rejects(verifyWebhook({ secret: webhook.secret, headers: delivery.headers, body: delivery.body.replace('job.sent', 'job.failed') }), WebhookVerificationError);
    await assert.rejects(verifyWebhook({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', headers: delivery.headers, body: delivery.body }), WebhookVerificationError);
    // A replay an hour later is refused even with a valid signature.
    await assert.rejects(verifyWebhook({ secret: webhook.secret, headers: delivery.headers, body: delivery.body, now: Date.now() + 3_600_000 }), /timestamp/);
  });
});

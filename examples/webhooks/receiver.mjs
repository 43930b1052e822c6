// A webhook receiver for notifyd's signed events (Standard Webhooks 1.0), with nothing but Node.
//   WEBHOOK_SECRET=whsec_… PORT=4400 node examples/webhooks/receiver.mjs
// Prints "verified <type> <job or suppression id>" per event; answers 401 to a request whose
// signature or timestamp does not check out (notifyd retries non-2xx answers, so a receiver
// must answer 2xx only for what it accepted). Deduplicate on the `webhook-id` header: a retry
// carries the same one. In an application, `verifyWebhook` from @notifyd/client/webhooks (or
// any Standard Webhooks library) does the checking below.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.WEBHOOK_SECRET ?? '';
if (!secret.startsWith('whsec_')) {
  console.error('set WEBHOOK_SECRET to the endpoint secret notifyd showed at creation (whsec_…)');
  process.exit(2);
}
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
const port = Number(process.env.PORT ?? 4400);
const TOLERANCE_SECONDS = 5 * 60; // refuse replays of old deliveries

/** True when one of the `v1,<base64>` signatures is the HMAC of `id.timestamp.body`. */
function verified(headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = String(headers['webhook-signature'] ?? '').split(' ');
  if (!id || !/^\d+$/.test(timestamp ?? '')) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.some((s) => {
    const [version, value] = s.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (!verified(req.headers, body)) {
      console.log(`rejected a request to ${req.url}: bad or missing signature`);
      res.writeHead(401).end();
      return;
    }
    const event = JSON.parse(body);
    console.log(`verified ${event.type} ${event.data?.job_id ?? event.data?.id ?? ''}`);
    res.writeHead(204).end();
  });
}).listen(port, '127.0.0.1');

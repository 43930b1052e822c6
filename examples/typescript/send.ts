/**
 * Send a notification from TypeScript with the notifyd client (`npm install @notifyd/client`;
 * here imported from this repository's clients/typescript). Run:
 * NOTIFYD_URL=… NOTIFYD_API_KEY=sk_… npx tsx send.ts user_123
 */
import { Notifyd, NotifydError, type SendResponse } from '../../clients/typescript/src/index.js';

/** notifyd's errors arrive as one typed class: `code` is stable, `message` says what to fix, `requestId` identifies the call. */
export { NotifydError };

export function sendOrderShipped(options: {
  url: string;
  apiKey: string;
  subscriberId: string;
  orderId: string;
}): Promise<SendResponse> {
  const notifyd = new Notifyd({ baseUrl: options.url, apiKey: options.apiKey });
  return notifyd.send({
    subscriber_id: options.subscriberId,
    channels: ['in_app', 'sms'],
    subject: 'Order {{order_id}} has shipped',
    body: 'Your order {{order_id}} is on its way.',
    vars: { order_id: options.orderId },
    url: `https://shop.example/orders/${options.orderId}`,
    // One event, one key: a retry of this call, or of the whole script, never notifies twice.
    // (Without one the client generates a key per call, which covers its own retries.)
    idempotency_key: `order-shipped-${options.orderId}`,
    tags: [{ name: 'category', value: 'orders' }],
    wait: '5s',
  });
}

// Run as a script: node --experimental-strip-types send.ts <subscriber id> (Node 22.6+), or npx tsx.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await sendOrderShipped({
    url: process.env.NOTIFYD_URL ?? 'http://localhost:3400',
    apiKey: process.env.NOTIFYD_API_KEY ?? '',
    subscriberId: process.argv[2] ?? 'alice',
    orderId: 'A-1042',
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

/**
 * Send a notification from TypeScript with nothing but `fetch` (Node 18+, Deno, Bun, browsers
 * on your own backend). Run: NOTIFYD_URL=… NOTIFYD_API_KEY=sk_… npx tsx send.ts user_123
 */

export interface SendResult {
  job_ids: string[];
  skipped: { channel: string; reason: string }[];
  outcomes?: { id: string; channel: string; status: string; provider: string | null; error: string | null }[];
  timed_out?: boolean;
}

/** A notifyd error: `error` is a stable code, `message` says what to fix. */
export class NotifydError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function sendOrderShipped(options: { url: string; apiKey: string; subscriberId: string; orderId: string }): Promise<SendResult> {
  const response = await fetch(`${options.url}/v1/send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      subscriber_id: options.subscriberId,
      channels: ['in_app', 'sms'],
      subject: 'Order {{order_id}} has shipped',
      body: 'Your order {{order_id}} is on its way.',
      vars: { order_id: options.orderId },
      url: `https://shop.example/orders/${options.orderId}`,
      // One event, one key: a retry of this call never notifies twice.
      idempotency_key: `order-shipped-${options.orderId}`,
      tags: [{ name: 'category', value: 'orders' }],
      wait: '5s',
    }),
  });
  const body = (await response.json()) as SendResult & { error: string; message: string };
  if (!response.ok) throw new NotifydError(response.status, body.error, body.message);
  return body;
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

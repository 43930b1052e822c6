/**
 * Verifies a notifyd webhook delivery (Standard Webhooks 1.0): `webhook-signature` holds one or
 * more `v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with
 * the base64 part of the `whsec_…` secret. Several signatures appear during a secret rotation;
 * one that verifies is enough. Web Crypto only: Node 20+, Deno, Bun, browsers, edge runtimes.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** The endpoint's secret (`whsec_…`), or several during a rotation of yours. */
  secret: string | readonly string[];
  /** The request's headers (a Headers object or Node's `req.headers`). */
  headers: HeaderSource;
  /** The raw body exactly as received: re-serialised JSON does not verify. */
  body: string | Uint8Array;
  /** How far the timestamp may be from now, in seconds (default 300): older deliveries are replays. */
  toleranceSeconds?: number;
  /** Now, in ms (tests). */
  now?: number;
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Length-independent comparison of two base64 strings (no early exit on the first difference). */
function equalConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Resolves with the parsed event when the delivery is authentic and fresh; rejects with
 * WebhookVerificationError otherwise (answer such a request 400 and do not act on it).
 */
export async function verifyWebhook<T = unknown>(options: VerifyOptions): Promise<T> {
  const id = header(options.headers, 'webhook-id');
  const timestamp = header(options.headers, 'webhook-timestamp');
  const signatures = header(options.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new WebhookVerificationError(`webhook-timestamp is more than ${tolerance} s from now (a replay, or a wrong clock)`);
  const body = typeof options.body === 'string' ? options.body : new TextDecoder().decode(options.body);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  const offered = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => s.slice(3));
  for (const secret of typeof options.secret === 'string' ? [options.secret] : options.secret) {
    const keyBytes = base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
    const key = await globalThis.crypto.subtle.importKey('raw', keyBytes as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const expected = bytesToBase64(new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, signed)));
    if (offered.some((s) => equalConstantTime(s, expected))) return JSON.parse(body) as T;
  }
  throw new WebhookVerificationError('no webhook-signature matches the secret');
}

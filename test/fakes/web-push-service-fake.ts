import { createECDH, createDecipheriv, type ECDH, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { decodeProtectedHeader, importJWK, type JWTPayload, jwtVerify } from 'jose';
import type { TestCertificate } from './test-certificate.js';

/** How a subscription's push service answers (RFC 8030 responses). */
export type WebPushScript =
  'ok' | 'gone' | 'notfound' | 'ratelimited' | 'error' | 'toolarge' | 'badrequest' | 'forbidden';

export interface ReceivedPush {
  script: WebPushScript;
  headers: IncomingHttpHeaders;
  /** The VAPID JWT's claims, after its signature was verified with the `k` key. */
  claims: JWTPayload;
  vapidKey: string;
  /** The decrypted payload (RFC 8291 aes128gcm, decrypted here with the browser's keys). */
  payload: Record<string, unknown>;
}

interface Subscription {
  script: WebPushScript;
  ecdh: ECDH;
  auth: Buffer;
}

/**
 * A browser push service over TLS on loopback. `subscribe()` plays the browser: it makes a
 * P-256 key pair and an auth secret and returns the PushSubscription JSON. Every push must
 * carry a valid VAPID JWT (ES256, aud = this origin, exp within 24 h, sub mailto/https) or it
 * is refused with 403 as real services do; its body is decrypted independently of the
 * web-push library (RFC 8291) and recorded. Answers are scripted per subscription.
 */
export class WebPushServiceFake {
  readonly received: ReceivedPush[] = [];
  /** Connections accepted (an SSRF test asserts none). */
  connections = 0;
  private readonly subscriptions = new Map<string, Subscription>();
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly tls: TestCertificate) {}

  async start(): Promise<void> {
    this.server = createServer({ key: this.tls.key, cert: this.tls.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void this.handle(req.url ?? '/', req.headers, Buffer.concat(chunks)).then(({ status, headers }) => {
          res.writeHead(status, headers);
          res.end();
        });
      });
    });
    this.server.on('secureConnection', (socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  get origin(): string {
    return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A new browser subscription answered with `script`: the JSON a page posts to /v1/push-tokens. */
  subscribe(script: WebPushScript = 'ok') {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const path = `/push/${script}/${randomUUID()}`;
    this.subscriptions.set(path, { script, ecdh, auth });
    return {
      endpoint: `${this.origin}${path}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    };
  }

  private async handle(
    path: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
  ): Promise<{ status: number; headers: Record<string, string> }> {
    const subscription = this.subscriptions.get(path);
    if (!subscription) return { status: 404, headers: {} };
    const vapid = await this.verifyVapid(String(headers.authorization ?? ''));
    if (!vapid || headers['content-encoding'] !== 'aes128gcm' || headers.ttl === undefined)
      return { status: 403, headers: {} };
    const payload = JSON.parse(decryptAes128gcm(body, subscription.ecdh, subscription.auth).toString('utf8')) as Record<
      string,
      unknown
    >;
    this.received.push({ script: subscription.script, headers, claims: vapid.claims, vapidKey: vapid.key, payload });
    switch (subscription.script) {
      case 'ok':
        return { status: 201, headers: { location: `${this.origin}/message/${randomUUID()}` } };
      case 'gone':
        return { status: 410, headers: {} };
      case 'notfound':
        return { status: 404, headers: {} };
      case 'ratelimited':
        return { status: 429, headers: { 'retry-after': '7' } };
      case 'error':
        return { status: 502, headers: {} };
      case 'toolarge':
        return { status: 413, headers: {} };
      case 'badrequest':
        return { status: 400, headers: {} };
      case 'forbidden':
        return { status: 403, headers: {} };
    }
  }

  /** RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT must verify with k. */
  private async verifyVapid(authorization: string): Promise<{ claims: JWTPayload; key: string } | undefined> {
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
    if (!match) return undefined;
    const [, token, key] = match;
    const raw = Buffer.from(key, 'base64url');
    if (raw.length !== 65 || decodeProtectedHeader(token).alg !== 'ES256') return undefined;
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    };
    try {
      const { payload } = await jwtVerify(token, await importJWK(jwk, 'ES256'), { audience: this.origin });
      const now = Date.now() / 1000;
      if (!payload.exp || payload.exp > now + 24 * 3600 || !/^(mailto:|https:)/.test(String(payload.sub)))
        return undefined;
      return { claims: payload, key };
    } catch {
      return undefined;
    }
  }
}

/** RFC 8291 + RFC 8188 decryption of a single-record aes128gcm body, as a browser does it. */
function decryptAes128gcm(body: Buffer, ecdh: ECDH, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const senderKey = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  const secret = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('not the last record (delimiter 0x02 missing)');
  return padded.subarray(0, end);
}

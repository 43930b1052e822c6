import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import {
  createSecureServer,
  type Http2SecureServer,
  type IncomingHttpHeaders,
  type ServerHttp2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import type { TestCertificate } from './test-certificate.js';

export const APNS_KEY_ID = 'KEY1234567';
export const APNS_TEAM_ID = 'TEAM765432';
export const APNS_TOPIC = 'com.acme.app';

export type ApnsScript =
  | 'ok'
  | 'unregistered'
  | 'bad-device'
  | 'not-for-topic'
  | 'expired-token'
  | 'too-many'
  | 'too-many-token-updates'
  | 'payload-too-large'
  | 'bad-topic'
  | 'internal'
  | 'unavailable'
  | 'shutdown'
  | 'stall';

const ANSWERS: Record<Exclude<ApnsScript, 'ok' | 'stall'>, [number, string]> = {
  unregistered: [410, 'Unregistered'],
  'bad-device': [400, 'BadDeviceToken'],
  'not-for-topic': [400, 'DeviceTokenNotForTopic'],
  'expired-token': [410, 'ExpiredToken'],
  'too-many': [429, 'TooManyRequests'],
  'too-many-token-updates': [429, 'TooManyProviderTokenUpdates'],
  'payload-too-large': [413, 'PayloadTooLarge'],
  'bad-topic': [400, 'BadTopic'],
  internal: [500, 'InternalServerError'],
  unavailable: [503, 'ServiceUnavailable'],
  shutdown: [503, 'Shutdown'],
};

export interface ReceivedNotification {
  script: ApnsScript;
  token: string;
  headers: IncomingHttpHeaders;
  jwt: string;
  claims: JWTPayload;
  payload: Record<string, unknown>;
}

/**
 * APNs over HTTP/2 with TLS on loopback. It owns the provider key pair (`privateKeyPem` is the
 * .p8 to configure) and checks each request the way APNs does: `authorization: bearer` ES256
 * JWT with kid = key id, iss = team, iat under an hour old (else 403 ExpiredProviderToken),
 * `apns-topic` = the app's bundle id (else 400 BadTopic); then answers by the device token's
 * script. `expireSeenTokens()` makes every token used so far answer ExpiredProviderToken.
 */
export class ApnsFake {
  readonly received: ReceivedNotification[] = [];
  readonly privateKeyPem: string;
  private readonly publicKey: ReturnType<typeof generateKeyPairSync>['publicKey'];
  private readonly scripts = new Map<string, ApnsScript>();
  private readonly expired = new Set<string>();
  private readonly seen = new Set<string>();
  private server: Http2SecureServer | undefined;
  private readonly sessions = new Set<ServerHttp2Session>();
  /** Provider tokens refused as expired. */
  expiredAnswers = 0;

  constructor(private readonly tls: TestCertificate) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKeyPem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    this.publicKey = publicKey;
  }

  async start(): Promise<void> {
    this.server = createSecureServer({ key: this.tls.key, cert: this.tls.cert });
    this.server.on('session', (session) => {
      this.sessions.add(session);
      session.on('close', () => this.sessions.delete(session));
    });
    this.server.on('stream', (stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        void this.answer(headers, Buffer.concat(chunks).toString('utf8')).then((answer) => {
          if (answer === 'stall' || stream.destroyed) return;
          stream.respond({
            ':status': answer.status,
            'apns-id': answer.id,
            ...(answer.reason ? { 'content-type': 'application/json' } : {}),
          });
          stream.end(
            answer.reason
              ? JSON.stringify({ reason: answer.reason, ...(answer.status === 410 ? { timestamp: Date.now() } : {}) })
              : undefined,
          );
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const session of this.sessions) session.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A device token (64 hex characters) answered with `script`. */
  deviceToken(script: ApnsScript = 'ok'): string {
    const token = randomBytes(32).toString('hex');
    this.scripts.set(token, script);
    return token;
  }

  expireSeenTokens(): void {
    for (const jwt of this.seen) this.expired.add(jwt);
  }

  /** Distinct provider tokens presented so far. */
  get providerTokens(): number {
    return this.seen.size;
  }

  private async answer(
    headers: IncomingHttpHeaders,
    body: string,
  ): Promise<{ status: number; id: string; reason?: string } | 'stall'> {
    const id = randomUUID().toUpperCase();
    const refuse = (status: number, reason: string) => ({ status, id, reason });
    const path = String(headers[':path'] ?? '');
    const match = /^\/3\/device\/([0-9a-f]+)$/.exec(path);
    if (headers[':method'] !== 'POST' || !match) return refuse(405, 'MethodNotAllowed');
    const jwt = /^bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
    if (!jwt) return refuse(403, 'MissingProviderToken');
    this.seen.add(jwt);
    let claims: JWTPayload;
    try {
      if (decodeProtectedHeader(jwt).kid !== APNS_KEY_ID) return refuse(403, 'InvalidProviderToken');
      ({ payload: claims } = await jwtVerify(jwt, this.publicKey, { algorithms: ['ES256'], issuer: APNS_TEAM_ID }));
    } catch {
      return refuse(403, 'InvalidProviderToken');
    }
    if (this.expired.has(jwt) || !claims.iat || claims.iat < Date.now() / 1000 - 3600) {
      this.expiredAnswers++;
      return refuse(403, 'ExpiredProviderToken');
    }
    if (!headers['apns-topic']) return refuse(400, 'MissingTopic');
    if (headers['apns-topic'] !== APNS_TOPIC) return refuse(400, 'BadTopic');
    const token = match[1];
    const script = this.scripts.get(token) ?? 'bad-device';
    this.received.push({ script, token, headers, jwt, claims, payload: JSON.parse(body) as Record<string, unknown> });
    if (script === 'stall') return 'stall';
    if (script === 'ok') return { status: 200, id };
    const [status, reason] = ANSWERS[script];
    return refuse(status, reason);
  }
}

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createPublicKey } from 'node:crypto';
import { jwtVerify } from 'jose';
import { type FakeAnswer, ProviderFake, type RecordedRequest } from './provider-fake.js';

export const FCM_PROJECT = 'acme-push-1';
export const FCM_CLIENT_EMAIL = 'notifyd@acme-push-1.iam.gserviceaccount.com';

/** How the fake answers a device token (its registration token names the behaviour). */
export type FcmScript =
  | 'ok'
  | 'unregistered'
  | 'sender-mismatch'
  | 'quota'
  | 'invalid'
  | 'unavailable'
  | 'internal'
  | 'third-party'
  | 'permission'
  | 'stall';

const fcmError = (
  status: number,
  googleStatus: string,
  errorCode: string | undefined,
  message: string,
  headers?: Record<string, string>,
): FakeAnswer => ({
  status,
  headers,
  json: {
    error: {
      code: status,
      message,
      status: googleStatus,
      details: errorCode ? [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] : [],
    },
  },
});

const ANSWERS: Record<Exclude<FcmScript, 'ok' | 'stall'>, FakeAnswer> = {
  unregistered: fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.'),
  'sender-mismatch': fcmError(403, 'PERMISSION_DENIED', 'SENDER_ID_MISMATCH', 'SenderId mismatch'),
  quota: fcmError(429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED', 'Quota exceeded for quota metric', {
    'retry-after': '90',
  }),
  invalid: fcmError(
    400,
    'INVALID_ARGUMENT',
    'INVALID_ARGUMENT',
    'The registration token is not a valid FCM registration token',
  ),
  unavailable: fcmError(503, 'UNAVAILABLE', 'UNAVAILABLE', 'The service is currently unavailable.', {
    'retry-after': '30',
  }),
  internal: fcmError(500, 'INTERNAL', 'INTERNAL', 'Internal error encountered.'),
  'third-party': fcmError(401, 'UNAUTHENTICATED', 'THIRD_PARTY_AUTH_ERROR', 'Auth error from APNS or Web Push Service'),
  permission: fcmError(403, 'PERMISSION_DENIED', undefined, "Permission 'cloudmessaging.messages.create' denied"),
};

/**
 * FCM HTTP v1 and Google's OAuth2 token endpoint on loopback. The token endpoint verifies the
 * RS256 assertion with the service account's public key (issuer, audience, scope, expiry) and
 * issues opaque access tokens; `messages:send` accepts only an issued, unrevoked token (else
 * 401 UNAUTHENTICATED, as FCM does) and answers by the device token's script, the first
 * segment of the token (`quota:abc` → QUOTA_EXCEEDED). Every request is recorded.
 */
export class FcmFake extends ProviderFake {
  readonly serviceAccount: {
    type: string;
    project_id: string;
    private_key_id: string;
    private_key: string;
    client_email: string;
    token_uri: string;
  };
  private readonly publicKey: ReturnType<typeof createPublicKey>;
  private readonly issued = new Set<string>();
  tokenRequests = 0;
  expiresIn = 3600;

  constructor() {
    super();
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.publicKey = publicKey;
    this.serviceAccount = {
      type: 'service_account',
      project_id: FCM_PROJECT,
      private_key_id: randomUUID(),
      private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      client_email: FCM_CLIENT_EMAIL,
      token_uri: '', // set by start()
    };
  }

  override async start(): Promise<string> {
    const url = await super.start();
    this.serviceAccount.token_uri = `${url}/token`;
    return url;
  }

  /** Revoke every issued access token (FCM then answers 401 UNAUTHENTICATED). */
  revokeAll(): void {
    this.issued.clear();
  }

  get sends(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/messages:send'));
  }

  protected async answer(req: RecordedRequest): Promise<FakeAnswer> {
    if (req.path === '/token') return this.token(req);
    if (req.method !== 'POST' || req.path !== `/v1/projects/${FCM_PROJECT}/messages:send`)
      return { status: 404, json: { error: { code: 404, status: 'NOT_FOUND' } } };
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!bearer || !this.issued.has(bearer))
      return fcmError(401, 'UNAUTHENTICATED', undefined, 'Request had invalid authentication credentials.');
    const message = (req.body as { message?: { token?: string } }).message;
    if (!message?.token) return fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'message.token is required');
    const script = message.token.split(':')[0] as FcmScript;
    if (script === 'stall') return 'stall';
    if (script in ANSWERS) return ANSWERS[script as keyof typeof ANSWERS];
    return { status: 200, json: { name: `projects/${FCM_PROJECT}/messages/${randomUUID()}` } };
  }

  private async token(req: RecordedRequest): Promise<FakeAnswer> {
    this.tokenRequests++;
    if (req.body.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return { status: 400, json: { error: 'unsupported_grant_type' } };
    try {
      const { payload } = await jwtVerify(String(req.body.assertion), this.publicKey, {
        algorithms: ['RS256'],
        issuer: FCM_CLIENT_EMAIL,
        audience: this.serviceAccount.token_uri,
        maxTokenAge: '1h',
      });
      if (payload.scope !== 'https://www.googleapis.com/auth/firebase.messaging')
        return { status: 400, json: { error: 'invalid_scope' } };
    } catch (err) {
      return { status: 400, json: { error: 'invalid_grant', error_description: (err as Error).message } };
    }
    const token = `ya29.${randomUUID()}`;
    this.issued.add(token);
    return { status: 200, json: { access_token: token, expires_in: this.expiresIn, token_type: 'Bearer' } };
  }
}

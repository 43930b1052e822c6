import { createECDH, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { z } from 'zod';
import { defineSection } from '../define-section.js';
import { envEnum, envInt, envList, envString, envUrl } from '../env-helpers.js';

/**
 * Push providers (src/connectors/push/), notifyd's variable names: Web Push with VAPID, FCM
 * HTTP v1 with a service account, APNs with an ES256 provider key. Each platform is enabled by
 * its credentials; PUSH_PROVIDER=native routes every device token to the sender of its platform.
 */

/** Push services that browsers use today (Chrome/Edge, Firefox, Windows, Safari). */
export const DEFAULT_WEB_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.notify.windows.com',
  'web.push.apple.com',
  '*.push.apple.com',
];

export const APNS_HOSTS = {
  production: 'https://api.push.apple.com',
  sandbox: 'https://api.sandbox.push.apple.com',
} as const;

const pushEnv = {
  /** URL-safe base64 of the raw 32-byte P-256 private key (`npx web-push generate-vapid-keys`). */
  VAPID_PRIVATE_KEY: envString(),
  /** The same key as PEM (PKCS#8 or SEC1); literal `\n` sequences are accepted. */
  VAPID_PRIVATE_KEY_PEM: envString(),
  /** URL-safe base64 of the 65-byte public key; derived from the private key when unset. */
  VAPID_PUBLIC_KEY: envString({
    pattern: /^[A-Za-z0-9_-]+={0,2}$/,
    hint: 'must be URL-safe base64 (the public key printed by web-push generate-vapid-keys)',
  }),
  /** Contact for push services: mailto:ops@example.com or an https:// URL. */
  VAPID_SUBJECT: envUrl({ protocols: ['mailto', 'https'], hint: 'must be mailto:you@example.com or an https:// URL' }),
  /**
   * Hosts a web push subscription endpoint may point to (comma list; `*.example.com` matches
   * sub-domains; `*` allows any public host). Endpoints come from browsers, i.e. from users.
   */
  WEB_PUSH_ENDPOINT_HOSTS: envList(),
  /** Path of a Firebase service-account key file (JSON with project_id, client_email, private_key). */
  FCM_SERVICE_ACCOUNT_FILE: envString(),
  /** The same key file's content inline (for secret stores that inject values, not files). */
  FCM_SERVICE_ACCOUNT_JSON: envString(),
  /** Firebase project id; default the key file's project_id. */
  FCM_PROJECT_ID: envString({
    pattern: /^[a-z0-9-]{3,64}$/,
    hint: 'must be a Firebase project id such as my-app-1234',
  }),
  /** FCM HTTP v1 base URL (tests point it at a local fake). */
  FCM_API_BASE: envUrl({ protocols: ['https', 'http'] }),
  /** OAuth2 token endpoint; default the key file's token_uri. */
  FCM_TOKEN_URL: envUrl({ protocols: ['https', 'http'] }),
  /** notifyd's legacy FCM server key: Google shut that API down in 2024 (refused with a fix). */
  FCM_SERVER_KEY: envString(),
  APNS_KEY_ID: envString({
    pattern: /^[A-Z0-9]{10}$/,
    hint: 'must be the 10-character Key ID of your .p8 key (Apple Developer → Keys)',
  }),
  APNS_TEAM_ID: envString({ pattern: /^[A-Z0-9]{10}$/, hint: 'must be your 10-character Apple Team ID' }),
  /** The .p8 key's PEM text; literal `\n` sequences are accepted. */
  APNS_PRIVATE_KEY: envString(),
  APNS_PRIVATE_KEY_PATH: envString(),
  /** The app's bundle id (apns-topic), e.g. com.example.app. */
  APNS_TOPIC: envString({ pattern: /^[A-Za-z0-9.-]+$/, hint: 'must be your app bundle id, e.g. com.example.app' }),
  APNS_ENVIRONMENT: envEnum(['production', 'sandbox', 'development'], 'production'),
  /** APNs base URL override (tests point it at a local HTTP/2 fake). */
  APNS_BASE_URL: envUrl({ protocols: ['https'] }),
  /** Provider token lifetime before it is re-signed: Apple wants 20–60 minutes. */
  APNS_TOKEN_REFRESH_SECS: envInt({ default: 3_000, min: 1_200, max: 3_540 }),
  /** Extra CA certificates (PEM file) trusted for push connections: private test or staging push services. */
  PUSH_CA_FILE: envString(),
  /** Requests one push job sends at once across its subscriber's devices. */
  PUSH_FANOUT_CONCURRENCY: envInt({ default: 8, min: 1, max: 64 }),
};

type Env = z.output<z.ZodObject<typeof pushEnv>>;
type Fail = (text: string) => undefined;

export interface WebPushConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface FcmConfig {
  projectId: string;
  clientEmail: string;
  privateKey: string;
  tokenUrl: string;
  apiBase: string;
}

export interface ApnsConfig {
  keyId: string;
  teamId: string;
  privateKey: string;
  topic: string;
  baseUrl: string;
  tokenRefreshMs: number;
}

export interface PushProvidersConfig {
  webPush?: WebPushConfig;
  webPushHosts: string[];
  fcm?: FcmConfig;
  apns?: ApnsConfig;
  /** PEM bundle: the public roots plus PUSH_CA_FILE. */
  ca?: string;
  fanoutConcurrency: number;
}

export const pushProvidersSection = defineSection(pushEnv, (env): PushProvidersConfig => {
  const problems: string[] = [];
  const fail = (text: string) => {
    problems.push(text);
    return undefined;
  };
  const webPush = vapid(env, fail);
  const fcm = firebase(env, fail);
  const apns = apple(env, fail);
  let ca: string | undefined;
  if (env.PUSH_CA_FILE) {
    try {
      // Added to the public roots, not instead of them: real push services stay reachable.
      ca = [...rootCertificates, readFileSync(env.PUSH_CA_FILE, 'utf8')].join('\n');
    } catch (err) {
      fail(
        `PUSH_CA_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); give the path of a PEM file or unset it.`,
      );
    }
  }
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return {
    webPush,
    webPushHosts: env.WEB_PUSH_ENDPOINT_HOSTS?.length
      ? env.WEB_PUSH_ENDPOINT_HOSTS.map((h) => h.toLowerCase())
      : DEFAULT_WEB_PUSH_HOSTS,
    fcm,
    apns,
    ca,
    fanoutConcurrency: env.PUSH_FANOUT_CONCURRENCY,
  };
});

/** Operators paste PEM keys into one-line variables with `\n` escapes; accept both forms. */
const pem = (text: string) => text.replace(/\\n/g, '\n').trim();

function vapid(env: Env, fail: Fail): WebPushConfig | undefined {
  if (!env.VAPID_PRIVATE_KEY && !env.VAPID_PRIVATE_KEY_PEM) {
    if (env.VAPID_PUBLIC_KEY || env.VAPID_SUBJECT)
      return fail(
        'VAPID_PUBLIC_KEY/VAPID_SUBJECT are set without a private key: set VAPID_PRIVATE_KEY (or VAPID_PRIVATE_KEY_PEM), or unset them.',
      );
    return undefined;
  }
  if (!env.VAPID_SUBJECT)
    return fail(
      'VAPID_SUBJECT is required with a VAPID key: set it to mailto:ops@example.com or an https:// URL of yours.',
    );
  let privateKey: Buffer;
  try {
    if (env.VAPID_PRIVATE_KEY) {
      privateKey = Buffer.from(env.VAPID_PRIVATE_KEY, 'base64url');
      if (privateKey.length !== 32) throw new Error('length');
    } else {
      const jwk = createPrivateKey(pem(env.VAPID_PRIVATE_KEY_PEM!)).export({ format: 'jwk' });
      if (jwk.crv !== 'P-256' || !jwk.d) throw new Error('curve');
      privateKey = Buffer.from(jwk.d, 'base64url');
    }
  } catch {
    const name = env.VAPID_PRIVATE_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PRIVATE_KEY_PEM';
    return fail(
      `${name} is not a P-256 private key: use the private key printed by \`npx web-push generate-vapid-keys\` (URL-safe base64, 32 bytes) or its PEM.`,
    );
  }
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(privateKey);
  const derived = ecdh.getPublicKey().toString('base64url');
  const publicKey = env.VAPID_PUBLIC_KEY?.replace(/=+$/, '');
  if (publicKey && publicKey !== derived) {
    return fail(
      'VAPID_PUBLIC_KEY does not belong to the VAPID private key: unset it (it is derived) or set the matching pair.',
    );
  }
  return { publicKey: derived, privateKey: privateKey.toString('base64url'), subject: env.VAPID_SUBJECT };
}

function firebase(env: Env, fail: Fail): FcmConfig | undefined {
  if (env.FCM_SERVER_KEY && !env.FCM_SERVICE_ACCOUNT_FILE && !env.FCM_SERVICE_ACCOUNT_JSON) {
    return fail(
      'FCM_SERVER_KEY is the legacy FCM API, which Google shut down in 2024: set FCM_SERVICE_ACCOUNT_FILE to a service-account key file (Firebase console → Project settings → Service accounts) instead.',
    );
  }
  if (!env.FCM_SERVICE_ACCOUNT_FILE && !env.FCM_SERVICE_ACCOUNT_JSON) return undefined;
  const name = env.FCM_SERVICE_ACCOUNT_JSON ? 'FCM_SERVICE_ACCOUNT_JSON' : 'FCM_SERVICE_ACCOUNT_FILE';
  let key: { project_id?: unknown; client_email?: unknown; private_key?: unknown; token_uri?: unknown };
  try {
    key = JSON.parse(env.FCM_SERVICE_ACCOUNT_JSON ?? readFileSync(env.FCM_SERVICE_ACCOUNT_FILE!, 'utf8'));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? 'not JSON';
    return fail(`${name} cannot be read (${why}): give a Firebase service-account key file (JSON).`);
  }
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
  const clientEmail = text(key.client_email);
  const privateKey = text(key.private_key);
  const projectId = env.FCM_PROJECT_ID ?? text(key.project_id);
  if (!clientEmail || !privateKey)
    return fail(
      `${name} lacks client_email or private_key: download a new key from Firebase console → Project settings → Service accounts.`,
    );
  if (!projectId) return fail(`${name} has no project_id: set FCM_PROJECT_ID.`);
  try {
    createPrivateKey(pem(privateKey));
  } catch {
    return fail(`${name}: private_key is not a PEM private key; download a new key file.`);
  }
  return {
    projectId,
    clientEmail,
    privateKey: pem(privateKey),
    tokenUrl: env.FCM_TOKEN_URL ?? text(key.token_uri) ?? 'https://oauth2.googleapis.com/token',
    apiBase: (env.FCM_API_BASE ?? 'https://fcm.googleapis.com').replace(/\/+$/, ''),
  };
}

function apple(env: Env, fail: Fail): ApnsConfig | undefined {
  const given = {
    APNS_KEY_ID: env.APNS_KEY_ID,
    APNS_TEAM_ID: env.APNS_TEAM_ID,
    'APNS_PRIVATE_KEY or APNS_PRIVATE_KEY_PATH': env.APNS_PRIVATE_KEY ?? env.APNS_PRIVATE_KEY_PATH,
    APNS_TOPIC: env.APNS_TOPIC,
  };
  const missing = Object.entries(given)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length === 4) return undefined;
  if (missing.length)
    return fail(
      `APNs is partly configured: also set ${missing.join(', ')} (all four are needed), or unset the others.`,
    );
  let privateKey: string;
  try {
    privateKey = pem(env.APNS_PRIVATE_KEY ?? readFileSync(env.APNS_PRIVATE_KEY_PATH!, 'utf8'));
    const jwk = createPrivateKey(privateKey).export({ format: 'jwk' });
    if (jwk.crv !== 'P-256') throw new Error('curve');
  } catch {
    const name = env.APNS_PRIVATE_KEY ? 'APNS_PRIVATE_KEY' : 'APNS_PRIVATE_KEY_PATH';
    return fail(
      `${name} is not a readable P-256 (.p8) key: use the AuthKey_<KEYID>.p8 file from Apple Developer → Keys.`,
    );
  }
  const environment = env.APNS_ENVIRONMENT === 'production' ? 'production' : 'sandbox';
  return {
    keyId: env.APNS_KEY_ID!,
    teamId: env.APNS_TEAM_ID!,
    privateKey,
    topic: env.APNS_TOPIC!,
    baseUrl: (env.APNS_BASE_URL ?? APNS_HOSTS[environment]).replace(/\/+$/, ''),
    tokenRefreshMs: env.APNS_TOKEN_REFRESH_SECS * 1000,
  };
}

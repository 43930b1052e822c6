import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import { loadConfig } from '../app-config.js';

const ecPem = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const rsaPem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

describe('push providers config', () => {
  it('configures nothing by default, with the known push services allowed', () => {
    const push = loadConfig({}).pushProviders;
    expect(push).toMatchObject({ webPush: undefined, fcm: undefined, apns: undefined, fanoutConcurrency: 8 });
    expect(push.webPushHosts).toContain('fcm.googleapis.com');
  });

  it('derives the VAPID public key from the private key (raw or PEM, one-line \\n accepted) and refuses a mismatched pair', () => {
    const keys = webpush.generateVAPIDKeys();
    const fromRaw = loadConfig({ VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:ops@example.com' })
      .pushProviders.webPush;
    expect(fromRaw).toEqual({
      publicKey: keys.publicKey,
      privateKey: keys.privateKey,
      subject: 'mailto:ops@example.com',
    });
    const pem = ecPem();
    const fromPem = loadConfig({
      VAPID_PRIVATE_KEY_PEM: pem.replace(/\n/g, '\\n'),
      VAPID_SUBJECT: 'https://acme.example',
    }).pushProviders.webPush;
    expect(fromPem?.publicKey).toMatch(/^B[A-Za-z0-9_-]{86}$/);
    expect(() =>
      loadConfig({
        VAPID_PRIVATE_KEY: keys.privateKey,
        VAPID_PUBLIC_KEY: webpush.generateVAPIDKeys().publicKey,
        VAPID_SUBJECT: 'mailto:a@b.c',
      }),
    ).toThrow(/VAPID_PUBLIC_KEY does not belong to the VAPID private key/);
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(/VAPID_SUBJECT is required/);
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: 'short', VAPID_SUBJECT: 'mailto:a@b.c' })).toThrow(
      /VAPID_PRIVATE_KEY is not a P-256 private key/,
    );
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'ops@example.com' })).toThrow(
      /VAPID_SUBJECT must be mailto:/,
    );
  });

  it('reads an FCM service-account key file, and refuses the retired legacy server key with the fix', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fcm-')), 'key.json');
    writeFileSync(
      file,
      JSON.stringify({
        type: 'service_account',
        project_id: 'acme-1',
        client_email: 'push@acme-1.iam.gserviceaccount.com',
        private_key: rsaPem(),
        token_uri: 'https://oauth2.googleapis.com/token',
      }),
    );
    expect(loadConfig({ FCM_SERVICE_ACCOUNT_FILE: file }).pushProviders.fcm).toMatchObject({
      projectId: 'acme-1',
      clientEmail: 'push@acme-1.iam.gserviceaccount.com',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      apiBase: 'https://fcm.googleapis.com',
    });
    expect(() => loadConfig({ FCM_SERVER_KEY: 'AAAA' })).toThrow(
      /legacy FCM API, which Google shut down in 2024: set FCM_SERVICE_ACCOUNT_FILE/,
    );
    expect(() => loadConfig({ FCM_SERVICE_ACCOUNT_FILE: '/nonexistent/key.json' })).toThrow(
      /FCM_SERVICE_ACCOUNT_FILE cannot be read \(ENOENT\)/,
    );
    expect(() => loadConfig({ FCM_SERVICE_ACCOUNT_JSON: '{"project_id":"x"}' })).toThrow(
      /lacks client_email or private_key/,
    );
  });

  it('needs all four APNs settings together, and a P-256 key; the token refresh stays within Apple’s 20–60 minutes', () => {
    const base = {
      APNS_KEY_ID: 'ABC123DEFG',
      APNS_TEAM_ID: 'TEAM123456',
      APNS_PRIVATE_KEY: ecPem().replace(/\n/g, '\\n'),
      APNS_TOPIC: 'com.acme.app',
    };
    expect(loadConfig(base).pushProviders.apns).toMatchObject({
      keyId: 'ABC123DEFG',
      teamId: 'TEAM123456',
      topic: 'com.acme.app',
      baseUrl: 'https://api.push.apple.com',
      tokenRefreshMs: 3_000_000,
    });
    expect(loadConfig({ ...base, APNS_ENVIRONMENT: 'sandbox' }).pushProviders.apns?.baseUrl).toBe(
      'https://api.sandbox.push.apple.com',
    );
    expect(() => loadConfig({ APNS_KEY_ID: 'ABC123DEFG', APNS_TOPIC: 'com.acme.app' })).toThrow(
      /APNs is partly configured: also set APNS_TEAM_ID, APNS_PRIVATE_KEY or APNS_PRIVATE_KEY_PATH/,
    );
    expect(() => loadConfig({ ...base, APNS_PRIVATE_KEY: rsaPem() })).toThrow(
      /APNS_PRIVATE_KEY is not a readable P-256 \(\.p8\) key/,
    );
    expect(() => loadConfig({ ...base, APNS_TOKEN_REFRESH_SECS: '600' })).toThrow(
      /APNS_TOKEN_REFRESH_SECS must be at least 1200/,
    );
    expect(() => loadConfig({ ...base, APNS_TOKEN_REFRESH_SECS: '3600' })).toThrow(
      /APNS_TOKEN_REFRESH_SECS must be at most 3540/,
    );
  });
});

#!/usr/bin/env node
// The idle footprint of a worker process: starts `notifyd serve` (NOTIFYD_ROLE=worker) from
// dist/ in a fresh bench database with every provider configured as a deployment would
// (credentials set, no traffic; --no-providers for none), waits until it is ready plus 5 s,
// samples VmRSS from /proc, and lists the packages its module graph loaded. Not the drain's
// peak RSS (`npm run bench` measures that). Run it with Node ≥ 22.15 (npx node).
//   npm run build && npx node bench/worker-footprint/idle-rss.mjs
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { createBenchDatabase } from '../lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const db = await createBenchDatabase();
const url = db.url;
const trace = join(mkdtempSync(join(tmpdir(), 'notifyd-footprint-')), 'packages.txt');
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();
const providers = process.argv.includes('--no-providers')
  ? {}
  : {
      EMAIL_PROVIDER: 'smtp',
      SMTP_HOST: '127.0.0.1',
      EMAIL_FALLBACK_PROVIDER: 'ses',
      SES_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEEXAMPLE00',
      AWS_SECRET_ACCESS_KEY: 'secretsecretsecretsecret',
      SMS_PROVIDER: 'twilio',
      SMS_FROM: '+15005550006',
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'x'.repeat(32),
      PUSH_PROVIDER: 'native',
      VAPID_PRIVATE_KEY: 'C9cW9ZbL2l0fD3tJq2o2lQ0k9G8Xx1m6m0h6yF5b5bE',
      VAPID_SUBJECT: 'mailto:ops@example.com',
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify({
        type: 'service_account',
        project_id: 'p',
        private_key: rsa,
        client_email: 'n@p.iam.gserviceaccount.com',
        token_uri: 'https://oauth2.googleapis.com/token',
      }),
      APNS_KEY_ID: 'ABC123DEFG',
      APNS_TEAM_ID: 'DEF123GHIJ',
      APNS_PRIVATE_KEY: ec.replace(/\n/g, '\\n'),
      APNS_TOPIC: 'com.example.app',
    };
const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const child = spawn(process.execPath, [join(root, 'dist', 'src', 'cli.js'), 'serve'], {
  env: {
    PATH: process.env.PATH,
    DATABASE_URL: url,
    NOTIFYD_ROLE: 'worker',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ADMIN_API_KEY: 'a'.repeat(32),
    JWT_SECRET: 'j'.repeat(32),
    NOTIFYD_TRACE_PACKAGES: trace,
    NODE_OPTIONS: `--import ${join(root, 'bench', 'worker-footprint', 'trace-packages.mjs')} ${process.env.EXTRA_IMPORT ?? ''}`,
    ...providers,
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const rss = () => Number(readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
// Ready (booted, migrated, worker loop running), then a few seconds of idling.
for (let ready = false; !ready;) {
  if (child.exitCode !== null) throw new Error(`the worker exited (${child.exitCode})`);
  ready = await fetch(`http://127.0.0.1:${port}/v1/health/ready`).then(
    (r) => r.ok,
    () => false,
  );
  if (!ready) await new Promise((r) => setTimeout(r, 250));
}
await new Promise((r) => setTimeout(r, 5_000));
const samples = [];
for (let i = 0; i < 10; i++) {
  samples.push(rss());
  await new Promise((r) => setTimeout(r, 500));
}
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
await db.drop();
samples.sort((a, b) => a - b);
const packages = [...new Set(readFileSync(trace, 'utf8').trim().split('\n'))].sort();
console.log(
  JSON.stringify(
    {
      idleRssMbMedian: Math.round(samples[5] * 10) / 10,
      idleRssMbMax: Math.round(samples[9] * 10) / 10,
      packages: packages.length,
      loaded: packages,
    },
    null,
    1,
  ),
);

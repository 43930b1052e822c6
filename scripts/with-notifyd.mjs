// Runs a command against a throwaway notifyd: `node scripts/with-notifyd.mjs <command> [args…]`.
// The instance runs the build in dist/ (api + worker) on a temporary database of DATABASE_URL's
// server (else an embedded PostgreSQL), listens on a free loopback port, and is removed when the
// command ends. The command gets NOTIFYD_URL and NOTIFYD_ADMIN_API_KEY; it exits with the
// command's code. The clients' test suites run this way in CI (.ci/run).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { startScratchNotifyd } from './lib/scratch-notifyd.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node scripts/with-notifyd.mjs <command> [args…]\n');
  process.exit(2);
}
const adminKey = `admin_${randomBytes(16).toString('hex')}`;
const scratch = await startScratchNotifyd({
  name: 'clients_test',
  listen: true,
  env: {
    NOTIFYD_ROLE: 'all',
    HOST: '127.0.0.1',
    PORT: '0',
    ADMIN_API_KEY: adminKey,
    // Log connectors: a send is "sent" without a provider account; the inbox keeps in-app messages.
    EMAIL_PROVIDER: 'log',
    SMS_PROVIDER: 'log',
    IN_APP_PROVIDER: 'inbox',
    WORKER_POLL_INTERVAL_MS: '200',
    // The tests' webhook receivers listen on 127.0.0.1 (never allowed in production).
    OUTBOUND_ALLOW_LOOPBACK: 'true',
    NODE_ENV: 'test',
    // Set but empty: any origin (the browser test's page is served from a port of its own).
    CORS_ORIGINS: '',
    EMAIL_RATE_PER_SEC: '0',
    SMS_RATE_PER_SEC: '0',
  },
});
let code = 1;
try {
  const child = spawn(command, args, {
    stdio: 'inherit',
    env: { ...process.env, NOTIFYD_URL: scratch.notifyd.url, NOTIFYD_ADMIN_API_KEY: adminKey },
  });
  const stop = () => child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
} finally {
  await scratch.close();
}
process.exit(code);

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ADMIN_KEY, READONLY_KEY, UNPACED } from './test-app.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface NotifydProcess {
  child: ChildProcess;
  url: string | null;
  /** stdout and stderr lines, for diagnosis. */
  output: string[];
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Starts notifyd as a real child process from the build in dist/ (run `npm run build` first;
 * .ci/run does). Resolves once it printed that it is ready. `gateway` plugs the test gateway
 * connector (test/fakes/gateway-provider.ts) in on a channel.
 */
export async function spawnNotifyd(options: {
  databaseUrl: string;
  env?: Record<string, string>;
  gateway?: { url: string; channel: string; provider?: string; batchMax?: number; meters?: 'requests' | 'messages' };
  /** How long to wait for "ready" (default 60 s; several processes booting at once on 2 cores need more). */
  startTimeoutMs?: number;
}): Promise<NotifydProcess> {
  const entry = join(root, 'dist', 'src', 'main.js');
  if (!existsSync(entry)) throw new Error('dist/ is missing: run `npm run build` before the multi-process tests');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: options.databaseUrl,
    ADMIN_API_KEY: ADMIN_KEY,
    READONLY_API_KEY: READONLY_KEY,
    JWT_SECRET: 'test-jwt-secret-0123456789abcdef',
    NOTIFYD_ROLE: 'worker',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    DATABASE_MAX_CONNECTIONS: '4',
    ...UNPACED,
    ...(options.gateway ? { NOTIFYD_TEST_GATEWAY: JSON.stringify(options.gateway) } : {}),
    ...options.env,
  };
  const child = spawn(process.execPath, [join(root, 'test', 'fixtures', 'notifyd-process.mjs')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const url = await new Promise<string | null>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`notifyd child did not start:\n${output.join('\n')}`)),
      options.startTimeoutMs ?? 60_000,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (line.startsWith('{"ready":true')) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string | null }).url);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`notifyd child exited before ready (code ${code}, signal ${signal}):\n${output.join('\n')}`));
    });
  });
  return { child, url, output, exited, kill: (signal = 'SIGTERM') => void child.kill(signal) };
}

import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built command (run `npm run build`, or `npm test`'s pretest, first). */
export const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'src', 'cli.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `notifyd <args>` as a script would: stdout and stderr are pipes, not a terminal. */
export function notifyd(args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/*
 * LOG_FLUSH_MS (issue 19): stdout log lines are buffered and written in blocks. None may be lost
 * on the ways a process ends that run Node's exit handlers (process.exit, an uncaught error),
 * and a quiet process still writes its lines without exiting (the periodic flush).
 */
const logger = pathToFileURL(
  join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src', 'logging', 'logger.js'),
);

/** Runs `body` in a child with a buffered logger `log`; resolves with its stdout lines' messages and exit code. */
function runChild(body: string, onLine?: (msg: string, child: ReturnType<typeof spawn>) => void) {
  if (!existsSync(fileURLToPath(logger))) throw new Error('dist/ is missing: run `npm run build` first');
  const script = `import { createLogger } from '${logger.href}';\nconst log = createLogger('info', 100);\n${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  const messages: string[] = [];
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop()!;
    for (const line of lines.filter(Boolean)) {
      const msg = (JSON.parse(line) as { msg: string }).msg;
      messages.push(msg);
      onLine?.(msg, child);
    }
  });
  return new Promise<{ messages: string[]; code: number | null }>((resolve) =>
    child.on('close', (code) => resolve({ messages, code })),
  );
}

describe('buffered stdout logs (LOG_FLUSH_MS)', () => {
  it('writes every buffered line when the process exits', async () => {
    const { messages, code } = await runChild(
      `for (let i = 0; i < 50; i++) log.log('line ' + i, 'test');\nprocess.exit(3);`,
    );
    expect(code).toBe(3);
    expect(messages).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`));
  });

  it('writes the lines logged before an uncaught error', async () => {
    const { messages, code } = await runChild(`log.log('before the crash', 'test');\nthrow new Error('boom');`);
    expect(code).toBe(1);
    expect(messages).toEqual(['before the crash']);
  });

  it('writes a line of a process that stays alive (the periodic flush), without waiting for a full block', async () => {
    // The child logs one short line and waits for its stdin to close: only the periodic flush can
    // deliver the line, and the test closes stdin once it has arrived.
    const { messages } = await runChild(
      `log.log('alive', 'test');\nprocess.stdin.resume();\nprocess.stdin.on('end', () => process.exit(0));`,
      (msg, child) => {
        if (msg === 'alive') child.stdin!.end();
      },
    );
    expect(messages).toEqual(['alive']);
  });
});

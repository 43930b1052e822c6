import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface GuideBlock {
  /** The heading the block sits under, to name it in a failure. */
  step: string;
  code: string;
  /** `#=> text` lines: what the block's output must contain. */
  expects: string[];
}

/** The `sh` blocks of docs/GUIDE.md in order (`sh norun` blocks start notifyd: the test does that itself). */
export function guideBlocks(markdown: string): GuideBlock[] {
  const blocks: GuideBlock[] = [];
  let step = '(top)';
  const fence = /^```(\S*)([^\n]*)\n([\s\S]*?)^```\n/gm;
  let last = 0;
  for (let m = fence.exec(markdown); m; m = fence.exec(markdown)) {
    const headings = markdown.slice(last, m.index).match(/^#+ .*$/gm);
    if (headings) step = headings.at(-1)!;
    last = fence.lastIndex;
    if (m[1] !== 'sh' || m[2].trim() === 'norun') continue;
    const expects = [...m[3].matchAll(/^#=> (.*)$/gm)].map((e) => e[1]);
    blocks.push({ step, code: m[3], expects });
  }
  return blocks;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * docs/GUIDE.md is run as a developer would run it: its `sh` blocks, in order, in one bash
 * session (variables carry over), with curl against a fresh notifyd started as the guide's step
 * 0 says (`log` email provider, loopback webhook URLs allowed as `npm run dev` does).
 */
describe('docs/GUIDE.md runs as written', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      env: {
        NOTIFYD_ROLE: 'all',
        WORKER_POLL_INTERVAL_MS: '200',
        OUTBOUND_ALLOW_LOOPBACK: 'true',
        LOG_PROVIDER_PRINT: 'false',
      },
    });
  });
  afterAll(() => app?.close());

  it('finds the six steps, each with something to check', () => {
    const blocks = guideBlocks(readFileSync(join(root, 'docs', 'GUIDE.md'), 'utf8'));
    const steps = new Set(blocks.filter((b) => b.expects.length > 0).map((b) => b.step.replace(/^#+ (\d+)\..*/, '$1')));
    expect([...steps].sort()).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('every block succeeds and prints what the guide says it prints', async () => {
    const blocks = guideBlocks(readFileSync(join(root, 'docs', 'GUIDE.md'), 'utf8'));
    const script = ['set -euo pipefail', ...blocks.flatMap((b, i) => [`echo "::block ${i}::"`, b.code])].join('\n');
    const child = spawn('bash', ['-c', script], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NOTIFYD_URL: app.url,
        ADMIN_KEY,
        RECEIVER_PORT: String(await freePort()),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    const outputs = stdout.split(/::block (\d+)::\n/);
    const outputOf = new Map<number, string>();
    for (let i = 1; i < outputs.length; i += 2) outputOf.set(Number(outputs[i]), outputs[i + 1]);
    const reached = Math.max(-1, ...outputOf.keys());
    // A failing block is named by its step, with what it printed.
    expect({
      code,
      stopped_in: code === 0 ? null : blocks[reached]?.step,
      stderr,
      output: code === 0 ? '' : outputOf.get(reached),
    }).toEqual({ code: 0, stopped_in: null, stderr: '', output: '' });
    const missing = blocks.flatMap((b, i) =>
      b.expects
        .filter((e) => !(outputOf.get(i) ?? '').includes(e))
        .map((e) => ({ step: b.step, expected: e, output: outputOf.get(i) })),
    );
    expect(missing).toEqual([]);
  }, 120_000);
});

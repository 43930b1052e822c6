import { reexecWorkerWithV8Flags, WORKER_V8_FLAGS } from './worker-v8-flags.js';

describe('reexecWorkerWithV8Flags', () => {
  const proc = process as unknown as { execve?: unknown };
  const original = proc.execve;
  let calls: string[][];

  beforeEach(() => {
    calls = [];
    proc.execve = (_file: string, args: string[]) => void calls.push(args);
  });
  afterEach(() => {
    proc.execve = original;
  });

  it('restarts a worker with the flags, whatever the case and spacing of NOTIFYD_ROLE (as the config reads it)', () => {
    for (const role of ['worker', 'Worker', ' WORKER ']) reexecWorkerWithV8Flags({ NOTIFYD_ROLE: role });
    expect(calls).toHaveLength(3);
    for (const args of calls) expect(args).toEqual(expect.arrayContaining(WORKER_V8_FLAGS));
  });

  it('bounds both the young generation and the old generation growth', () => {
    expect(WORKER_V8_FLAGS).toEqual([
      expect.stringMatching(/^--max-semi-space-size=\d+$/),
      expect.stringMatching(/^--heap-growing-percent=\d+$/),
    ]);
  });

  it('leaves other roles alone, and a worker whose operator set every flag', () => {
    reexecWorkerWithV8Flags({});
    reexecWorkerWithV8Flags({ NOTIFYD_ROLE: 'all' });
    reexecWorkerWithV8Flags({ NOTIFYD_ROLE: 'api' });
    reexecWorkerWithV8Flags({
      NOTIFYD_ROLE: 'worker',
      NODE_OPTIONS: '--max-semi-space-size=4 --heap_growing_percent=50',
    });
    expect(calls).toHaveLength(0);
  });

  it("keeps an operator's own value of a flag and adds only the others", () => {
    reexecWorkerWithV8Flags({ NOTIFYD_ROLE: 'worker', NODE_OPTIONS: '--max-semi-space-size=16' });
    expect(calls).toHaveLength(1);
    expect(
      calls[0].filter((a) => a.startsWith('--max-semi-space-size') || a.startsWith('--heap-growing-percent')),
    ).toEqual([WORKER_V8_FLAGS[1]]);
  });
});

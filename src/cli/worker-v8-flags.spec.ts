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

  it('leaves other roles and an operator-set semi-space alone', () => {
    reexecWorkerWithV8Flags({});
    reexecWorkerWithV8Flags({ NOTIFYD_ROLE: 'all' });
    reexecWorkerWithV8Flags({ NOTIFYD_ROLE: 'api' });
    reexecWorkerWithV8Flags({ NOTIFYD_ROLE: 'worker', NODE_OPTIONS: '--max-semi-space-size=8' });
    expect(calls).toHaveLength(0);
  });
});

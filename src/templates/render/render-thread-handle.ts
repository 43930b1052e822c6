import { Worker } from 'node:worker_threads';
import { PARSING, ProgressSlots, type RenderTask, type RenderTaskReply, type ThreadLimits } from './render-protocol.js';

/** Why a task did not finish: the part it was on ran too long, ran out of heap, the thread died, or notifyd is stopping. */
export interface Stopped {
  reason: 'time' | 'memory' | 'crash' | 'closed';
  /** PARSING (index: the variant) or RENDERING (index: the render entry), as in ProgressSlots. */
  kind: number;
  index: number;
  part: number;
  detail: string;
}

export type TaskOutcome = { reply: RenderTaskReply } | { stopped: Stopped };

/**
 * The task could not be posted to the thread (its vars cannot be structured-cloned: JSON nested
 * past V8's clone depth, about 2 000 levels, which JSON.parse and jsonb accept). The task's
 * fault, not the thread's: the thread stays usable.
 */
export class UnsendableTask extends Error {
  constructor(readonly detail: string) {
    super(`the render task could not be handed to a render thread: ${detail}`);
    this.name = 'UnsendableTask';
  }
}

interface Running {
  settle: (outcome: TaskOutcome) => void;
  timer?: NodeJS.Timeout;
}

/**
 * One render thread seen from the main thread: started on demand, one task at a time, watched
 * by a timer against the progress slots. A part that runs past `limitMs` gets the thread
 * terminated (V8 stops even a tight loop inside one filter call) and the task answered
 * `stopped`; a thread over its heap cap dies the same way. A stopped handle is never reused.
 */
export class RenderThreadHandle {
  readonly ready: Promise<void>;
  /** Resolves when the thread has exited (after a stop, terminate() takes a moment). */
  readonly exited: Promise<void>;
  private readonly worker: Worker;
  private readonly slots = new ProgressSlots(new SharedArrayBuffer(ProgressSlots.BYTES));
  private running: Running | undefined;
  private alive = true;

  constructor(
    script: URL,
    limits: ThreadLimits,
    private readonly limitMs: number,
    memoryMb: number,
    /** Told once when the thread is gone, whatever the cause, so the pool forgets it. */
    private readonly onGone: (handle: RenderThreadHandle) => void,
  ) {
    this.worker = new Worker(script, {
      workerData: { limits, progress: this.slots.buffer },
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, stackSizeMb: 4 },
      // Templates never see the environment; the thread needs none of it, nor the parent's flags.
      env: {},
      execArgv: [],
      stdout: false,
      stderr: false,
    });
    this.worker.unref();
    this.exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (message: unknown) => {
        if (message === 'ready') return resolve();
        const m = message as { reply?: RenderTaskReply; failure?: string };
        if (m.reply) this.finish({ reply: m.reply });
        else this.stop('crash', `the render thread failed: ${m.failure}`);
      });
      this.worker.on('error', (err: Error & { code?: string }) => {
        reject(err);
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') this.stop('memory', err.message);
        else this.stop('crash', `the render thread failed: ${err.message}`);
      });
      this.worker.on('exit', (code) => {
        reject(new Error(`the render thread exited (code ${code}) before it was ready`));
        this.stop('crash', `the render thread exited (code ${code})`);
      });
    });
    // A failed start is reported through `ready` to whoever waits on it; never unhandled.
    this.ready.catch(() => undefined);
  }

  get usable(): boolean {
    return this.alive && !this.running;
  }

  run(task: RenderTask): Promise<TaskOutcome> {
    if (!this.usable) return Promise.reject(new Error('render thread busy or gone'));
    return new Promise<TaskOutcome>((settle, reject) => {
      // Timed from the post: a thread slow to pick the task up counts against its first part.
      // Stamped before the post, so the thread's own first stamp always comes after it.
      this.slots.start(PARSING, 0, 0);
      try {
        this.worker.postMessage(task);
      } catch (err) {
        // Thrown before the handle is marked busy: the thread is as usable as before.
        reject(new UnsendableTask(err instanceof Error ? err.message : String(err)));
        return;
      }
      this.running = { settle };
      this.worker.ref();
      this.watch(this.limitMs);
    });
  }

  /** Terminates the thread; a task in flight is answered `stopped` (closed). */
  async close(): Promise<void> {
    this.stop('closed', 'notifyd is shutting down');
    await this.exited;
  }

  private watch(delayMs: number): void {
    const running = this.running!;
    running.timer = setTimeout(() => {
      if (this.running !== running) return;
      const { startedAt } = this.slots.read();
      const elapsed = Date.now() - startedAt;
      // Timers may fire a little early: re-armed for what is left of the part's time.
      if (elapsed < this.limitMs) return this.watch(this.limitMs - elapsed);
      this.stop('time', `ran ${elapsed} ms`);
    }, delayMs);
  }

  private finish(outcome: TaskOutcome): void {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    clearTimeout(running.timer);
    if (this.alive) this.worker.unref();
    running.settle(outcome);
  }

  /** The thread is not to be used again: terminated, and its task (if any) answered with where it stood. */
  private stop(reason: Stopped['reason'], detail: string): void {
    if (this.alive) {
      this.alive = false;
      void this.worker.terminate().catch(() => undefined);
      this.onGone(this);
    }
    const { kind, index, part } = this.slots.read();
    this.finish({ stopped: { reason, kind, index, part, detail } });
  }
}

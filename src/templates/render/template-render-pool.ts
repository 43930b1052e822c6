import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { RenderTask } from './render-protocol.js';
import { RenderThreadHandle, type TaskOutcome, UnsendableTask } from './render-thread-handle.js';
import { renderThreadScript } from './render-thread-script.js';

/** No render thread can take the task now (queue full, threads cannot start, shutting down): try again later. */
export class RenderPoolUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderPoolUnavailable';
  }
}

interface Waiting {
  task: RenderTask;
  resolve: (outcome: TaskOutcome) => void;
  reject: (err: Error) => void;
}

/**
 * TEMPLATE_RENDER_THREADS render threads (started on first use), each running one task at a
 * time, and a FIFO of at most TEMPLATE_RENDER_QUEUE waiting tasks; past it a task is refused at
 * once (RenderPoolUnavailable), so a burst of slow templates costs a bounded number of threads
 * and a bounded queue, never the event loop. A thread stopped by the watchdog is replaced on
 * the next task. A task that cannot be posted (UnsendableTask) is refused with that error, and its
 * thread goes back to idle.
 */
@Injectable()
export class TemplateRenderPool implements OnApplicationShutdown {
  private readonly logger = new Logger('TemplateRenderPool');
  private readonly threads = new Set<RenderThreadHandle>();
  /** Stopped threads until they have exited: shutdown waits for them too. */
  private readonly exiting = new Set<RenderThreadHandle>();
  private readonly idle: RenderThreadHandle[] = [];
  private readonly queue: Waiting[] = [];
  private starting = 0;
  private closed = false;
  private script: URL | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Threads alive now (started or starting), for tests and the bench. */
  get size(): number {
    return this.threads.size;
  }

  run(task: RenderTask): Promise<TaskOutcome> {
    const { threads, queueLimit } = this.config.templates;
    if (this.closed) return Promise.reject(new RenderPoolUnavailable('the template renderer is shutting down'));
    if (this.queue.length >= queueLimit) {
      return Promise.reject(
        new RenderPoolUnavailable(
          `all ${threads} template render threads are busy and ${queueLimit} renders are waiting (TEMPLATE_RENDER_THREADS, TEMPLATE_RENDER_QUEUE); retry in a few seconds`,
        ),
      );
    }
    return new Promise<TaskOutcome>((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.pump();
    });
  }

  /** After the worker's beforeApplicationShutdown: the batches it finishes still render. */
  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const w of this.queue.splice(0)) w.reject(new RenderPoolUnavailable('the template renderer is shutting down'));
    await Promise.all([...this.threads, ...this.exiting].map((t) => t.close()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const thread = this.idle.pop();
      if (thread) {
        if (thread.usable) this.execute(thread, this.queue.shift()!);
        continue;
      }
      if (this.threads.size >= this.config.templates.threads || this.starting >= this.queue.length) return;
      this.start();
    }
  }

  private execute(thread: RenderThreadHandle, waiting: Waiting): void {
    thread.run(waiting.task).then(
      (outcome) => {
        if (thread.usable) this.idle.push(thread);
        if ('stopped' in outcome)
          this.logger.warn(
            `a template render was stopped (${outcome.stopped.reason}: ${outcome.stopped.detail}); its thread is replaced`,
          );
        waiting.resolve(outcome);
        this.pump();
      },
      (err: Error) => {
        // A task that could not be posted leaves its thread usable: back to idle, or every such
        // task would take one thread for good and the pool would stop rendering.
        if (thread.usable) this.idle.push(thread);
        waiting.reject(err instanceof UnsendableTask ? err : new RenderPoolUnavailable(err.message));
        this.pump();
      },
    );
  }

  private start(): void {
    const { parseLimit, renderLimitMs, memoryLimit, outputLimit, threadMemoryMb } = this.config.templates;
    let thread: RenderThreadHandle;
    try {
      this.script ??= renderThreadScript();
      thread = new RenderThreadHandle(
        this.script,
        { parseLimit, renderLimitMs, memoryLimit, outputLimit },
        renderLimitMs,
        threadMemoryMb,
        (gone) => this.forget(gone),
      );
    } catch (err) {
      this.failStart(err as Error);
      return;
    }
    this.threads.add(thread);
    this.starting++;
    thread.ready.then(
      () => {
        this.starting--;
        this.idle.push(thread);
        this.pump();
      },
      (err: Error) => {
        this.starting--;
        this.failStart(err);
      },
    );
  }

  /** A thread that cannot start leaves the waiting tasks nobody to run them when it was the only one. */
  private failStart(err: Error): void {
    this.logger.error(`a template render thread could not start: ${err.message}`);
    if (this.threads.size === 0) {
      for (const w of this.queue.splice(0))
        w.reject(new RenderPoolUnavailable(`template render threads cannot start: ${err.message}`));
    }
  }

  private forget(thread: RenderThreadHandle): void {
    this.threads.delete(thread);
    this.exiting.add(thread);
    void thread.exited.then(() => this.exiting.delete(thread));
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
  }
}

/*
 * What the main thread and a render thread say to each other (src/templates/render/). Only
 * plain data crosses: sources, vars and rendered strings (structured clone).
 */

/** A stored variant's Liquid source, one string per part. */
export interface TemplateSource {
  subject: string | null;
  body: string;
  bodyHtml: string | null;
}

export interface RenderedContent {
  subject?: string;
  body: string;
  bodyHtml?: string;
}

/** The parts in the order they are parsed and rendered; a part's index is its number in the progress slots. */
export const PARTS = ['subject', 'body', 'body_html'] as const;

/** Limits a render thread applies inside liquidjs (the time and heap bounds are enforced from outside). */
export interface ThreadLimits {
  parseLimit: number;
  renderLimitMs: number;
  memoryLimit: number;
  outputLimit: number;
}

/** What a thread is started with (workerData). */
export interface ThreadData {
  limits: ThreadLimits;
  /** The progress slots (see ProgressSlots), shared with the main thread's watchdog. */
  progress: SharedArrayBuffer;
}

/**
 * One message to a thread: parse every variant (a save's check has no renders), then render
 * each entry with its variant. A claimed batch is one task, so the thread is crossed twice per
 * batch, not twice per message.
 */
export interface RenderTask {
  variants: TemplateSource[];
  renders: { variant: number; vars: Record<string, unknown> }[];
}

/** A part's failure, in words for the tenant ("body failed to render: …"). */
export type RenderResult = { content: RenderedContent } | { error: string };

export interface RenderTaskReply {
  /** Per variant: null when every part parses, else why not (its renders are not attempted). */
  parseErrors: (string | null)[];
  renders: RenderResult[];
}

/** The kind of unit of work in the progress slots. */
export const PARSING = 0;
export const RENDERING = 1;

/**
 * The unit of work a thread is on, written by the thread before it starts each part and read
 * by the main thread's watchdog: when the unit started (ms since the epoch, the wall clock
 * both threads share), what it is (PARSING a variant or RENDERING an entry), its index, the
 * part. The main thread also stamps `startedAt` when it posts a task, so that a thread which
 * has not yet picked the task up is timed from the post.
 */
export class ProgressSlots {
  static readonly BYTES = 24;
  private readonly time: BigInt64Array;
  private readonly unit: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.time = new BigInt64Array(buffer, 0, 1);
    this.unit = new Int32Array(buffer, 8, 3);
  }

  start(kind: number, index: number, part: number, at = Date.now()): void {
    Atomics.store(this.unit, 0, kind);
    Atomics.store(this.unit, 1, index);
    Atomics.store(this.unit, 2, part);
    Atomics.store(this.time, 0, BigInt(at));
  }

  read(): { startedAt: number; kind: number; index: number; part: number } {
    const startedAt = Number(Atomics.load(this.time, 0));
    return {
      startedAt,
      kind: Atomics.load(this.unit, 0),
      index: Atomics.load(this.unit, 1),
      part: Atomics.load(this.unit, 2),
    };
  }
}

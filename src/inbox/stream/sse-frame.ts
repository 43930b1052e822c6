import type { StreamFormat } from './stream-format.js';

/** One Server-Sent Events frame: `id`, `event` and one `data` line of JSON (JSON has no raw newlines). */
export function sseFrame(id: string, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: keeps proxies from closing an idle stream, ignored by EventSource. */
export const SSE_HEARTBEAT = ': ping\n\n';

/** An open stream of one subscriber in this process. */
export interface StreamConnection {
  readonly projectId: string;
  readonly subscriberId: string;
  /** What the client reads: notifyd's named events, or notifyd 0.x's (stream-format.ts). */
  readonly format: StreamFormat;
  /** The last event id this connection has been sent. */
  lastId: bigint;
  /** The counts last sent, to skip repeating them. */
  lastCounts?: string;
  /** The reader is behind: write it nothing more until it drains (see SseConnection). */
  readonly congested: boolean;
  write(frame: string): void;
  /** Closes the stream when it has been congested for `graceMs` or more; true when it did. */
  dropIfStalled(now: number, graceMs: number): boolean;
  end(): void;
}

export const streamKey = (projectId: string, subscriberId: string) => `${projectId}/${subscriberId}`;

/** The reverse of streamKey; project ids never contain `/`, subscriber ids may. */
export function parseStreamKey(key: string): { projectId: string; subscriberId: string } | undefined {
  const at = key.indexOf('/');
  return at < 1 ? undefined : { projectId: key.slice(0, at), subscriberId: key.slice(at + 1) };
}

import type { ServerResponse } from 'node:http';
import type { StreamConnection } from './sse-frame.js';
import type { StreamFormat } from './stream-format.js';

/**
 * One open stream on its socket, written with backpressure. Node keeps what the socket has not
 * taken yet in memory (`writableLength`); a reader that stops reading would make it grow without
 * bound. So once that buffer reaches INBOX_STREAM_MAX_BUFFER_BYTES the stream is `congested`:
 * the hub writes it no more events (they stay in the database) until the socket drains, then
 * catches it up from its last id. A stream still past the bound a heartbeat later has a reader
 * that stopped reading: `dropIfStalled` closes it, freeing its memory and its slot, and its
 * client reconnects with Last-Event-ID. Memory per stream: at most the bound plus one event.
 */
export class SseConnection implements StreamConnection {
  lastCounts?: string;
  /** When the buffer last reached the bound; undefined while under it. */
  private congestedSince: number | undefined;

  constructor(
    readonly projectId: string,
    readonly subscriberId: string,
    public lastId: bigint,
    private readonly raw: ServerResponse,
    private readonly maxBufferBytes: number,
    readonly format: StreamFormat = 'notifyd',
  ) {}

  get congested(): boolean {
    return this.raw.writableLength >= this.maxBufferBytes;
  }

  get closed(): boolean {
    return this.raw.destroyed || this.raw.writableEnded;
  }

  write(frame: string): void {
    if (this.closed) return;
    this.raw.write(frame);
    if (this.congestedSince === undefined && this.congested) this.congestedSince = Date.now();
  }

  /** Calls `resume` when the socket has taken everything, so the hub can catch the stream up. */
  onDrain(resume: () => void): void {
    this.raw.on('drain', () => {
      this.congestedSince = undefined;
      resume();
    });
  }

  dropIfStalled(now: number, graceMs: number): boolean {
    if (this.congestedSince === undefined) return false;
    if (!this.congested) {
      this.congestedSince = undefined;
      return false;
    }
    if (now - this.congestedSince < graceMs) return false;
    this.raw.destroy();
    return true;
  }

  end(): void {
    this.raw.end();
  }
}

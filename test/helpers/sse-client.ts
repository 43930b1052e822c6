/** One event as EventSource would deliver it. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: any;
}

/**
 * A minimal Server-Sent Events reader over fetch, for tests: records every event and comment,
 * and lets a test wait for the next event matching a predicate.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  comments = 0;
  status = 0;
  /** The JSON error body when the stream was refused. */
  body: any;
  /** Settles when the stream is over: the server ended it, it was refused, or close() was called. */
  readonly ended: Promise<void>;
  private markEnded!: () => void;
  private readonly abort = new AbortController();
  private waiters: { match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  private buffer = '';

  constructor() {
    this.ended = new Promise<void>((resolve) => (this.markEnded = resolve));
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient();
    const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: client.abort.signal });
    client.status = res.status;
    if (res.status !== 200 || !res.body) {
      client.body = await res.json().catch(() => undefined);
      client.markEnded();
      return client;
    }
    void client.read(res.body);
    return client;
  }

  /** Resolves with the first event (already received or coming) that matches, or rejects after `ms`. */
  next(match: (e: SseEvent) => boolean, ms = 10_000, from = 0): Promise<SseEvent> {
    const seen = this.events.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no matching SSE event within ${ms} ms; got ${JSON.stringify(this.events.map((e) => `${e.id}:${e.event}`))}`,
            ),
          ),
        ms,
      );
      this.waiters.push({ match, resolve: (e) => (clearTimeout(timer), resolve(e)) });
    });
  }

  close(): void {
    this.abort.abort();
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = this.buffer.indexOf('\n\n')) >= 0) {
          this.frame(this.buffer.slice(0, end));
          this.buffer = this.buffer.slice(end + 2);
        }
      }
    } catch {
      // aborted
    } finally {
      this.markEnded();
    }
  }

  private frame(text: string): void {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    let fields = 0;
    for (const line of text.split('\n')) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      fields++;
      if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (!data.length || fields === 0) return;
    const e: SseEvent = { id, event, data: JSON.parse(data.join('\n')) };
    this.events.push(e);
    for (const w of [...this.waiters]) {
      if (w.match(e)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(e);
      }
    }
  }
}

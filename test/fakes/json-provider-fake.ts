import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a provider fake received, as it arrived. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  raw: string;
  body: any;
  at: number;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  /** JSON-serialised unless a string. */
  body?: unknown;
  /** Never answer (until the fake stops): a provider stalling past the client's timeout. */
  stall?: boolean;
}

/**
 * The common part of the HTTP provider fakes: a loopback HTTP server that records every
 * request and lets the provider's own class answer it in that provider's wire format.
 */
export abstract class JsonProviderFake {
  readonly requests: RecordedRequest[] = [];
  private server: Server | undefined;
  private readonly stalled = new Set<ServerResponse>();
  protected sequence = 0;

  protected abstract answer(request: RecordedRequest): FakeAnswer | Promise<FakeAnswer>;

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  /** The base URL to point the app at (once started). */
  get url(): string {
    if (!this.server?.listening) throw new Error('fake not started');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const res of this.stalled) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  clear(): void {
    this.requests.length = 0;
  }

  protected nextId(prefix: string): string {
    return `${prefix}${String(++this.sequence).padStart(6, '0')}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
    );
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers,
      raw,
      body,
      at: Date.now(),
    };
    this.requests.push(request);
    const answer = await this.answer(request);
    if (answer.stall) {
      this.stalled.add(res);
      res.on('close', () => this.stalled.delete(res));
      return;
    }
    const text =
      answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, { ...(text ? { 'content-type': 'application/json' } : {}), ...answer.headers });
    res.end(text);
  }
}

import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the fake received it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  raw: string;
  /** Parsed body: JSON, or the fields of a form-encoded body. */
  body: Record<string, unknown>;
}

/** How the fake answers: a status with a body (JSON unless text), or no answer at all. */
export type FakeAnswer = { status: number; json?: unknown; text?: string; headers?: Record<string, string> } | 'stall';

/**
 * A local HTTP server standing in for a provider's API: records every request and answers
 * with what `answer` returns (subclasses speak the provider's wire format and script answers
 * by recipient, the way the providers' own test numbers and sandboxes work). Loopback only.
 */
export abstract class ProviderFake {
  readonly requests: RecordedRequest[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  protected abstract answer(request: RecordedRequest): FakeAnswer | Promise<FakeAnswer>;

  /** Starts on a free loopback port; returns the base URL (http://127.0.0.1:port). */
  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const type = String(req.headers['content-type'] ?? '');
    let body: Record<string, unknown> = {};
    if (type.startsWith('application/x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(raw));
    else if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        body = {};
      }
    }
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      raw,
      body,
    };
    this.requests.push(request);
    const answer = await this.answer(request);
    if (answer === 'stall') return; // never answers: the caller's timeout must fire
    const text = answer.text ?? JSON.stringify(answer.json ?? {});
    res.writeHead(answer.status, {
      'content-type': answer.text !== undefined ? 'text/plain' : 'application/json',
      ...answer.headers,
    });
    res.end(text);
  }
}

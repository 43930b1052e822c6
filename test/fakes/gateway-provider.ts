import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message as the gateway protocol carries it (see test/fixtures/notifyd-process.mjs). */
export interface GatewayMessage {
  job_id: string;
  recipient: string;
  body?: string;
  attempt: number;
  priority: number;
}

export interface GatewayRequest {
  at: number;
  /** When the notifyd process sent it (its clock: the same machine's), before any queueing here. */
  sentAt: number;
  /** The notifyd process that made the call. */
  pid: string | undefined;
  idempotencyKey: string | undefined;
  messages: GatewayMessage[];
}

/** How the fake answers one request: a status with headers and a body, or per-message results. */
export type GatewayAnswer =
  | { status: number; headers?: Record<string, string>; body?: string }
  | {
      results: ({ ok: true } | { ok: false; kind: string; error: string })[];
      headers?: Record<string, string>;
      delayMs?: number;
    };

/**
 * A local HTTP provider that records every request and answers as the test scripts it
 * (a 429 with Retry-After, a 5xx storm, a slow answer…). Loopback only.
 */
export class GatewayProvider {
  readonly requests: GatewayRequest[] = [];
  script: (request: GatewayRequest) => GatewayAnswer | Promise<GatewayAnswer> = (r) => ({
    results: r.messages.map(() => ({ ok: true })),
  });
  private server: Server | undefined;
  private sequence = 0;

  get messages(): GatewayMessage[] {
    return this.requests.flatMap((r) => r.messages);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/send`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: GatewayRequest = {
      at: Date.now(),
      sentAt: Number(req.headers['x-notifyd-sent-at'] ?? Date.now()),
      pid: req.headers['x-notifyd-pid'] as string | undefined,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      messages: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: GatewayMessage[] }).messages,
    };
    this.requests.push(request);
    const answer = await this.script(request);
    if ('status' in answer) {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? JSON.stringify({ error: `HTTP ${answer.status}` }));
      return;
    }
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    res.writeHead(200, { 'content-type': 'application/json', ...answer.headers });
    res.end(
      JSON.stringify({ results: answer.results.map((r) => (r.ok ? { ok: true, id: `gw_${++this.sequence}` } : r)) }),
    );
  }
}

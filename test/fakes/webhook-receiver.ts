import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as a Standard Webhooks receiver sees it: raw body and the signature headers. */
export interface ReceivedWebhook {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How the receiver answers: a status with headers and body, or no answer at all (hang). */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A webhook consumer on loopback: records every request with its raw body (what signatures
 * are computed over) and answers as the test scripts it (2xx, 410, 302, 429 + Retry-After,
 * 5xx, or never). Counts TCP connections, so a test can assert a canary saw none.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  script: (request: ReceivedWebhook, index: number) => ReceiverAnswer = () => ({ status: 204 });
  connections = 0;
  private server: Server | undefined;
  private readonly hanging = new Set<ServerResponse>();

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (_: Socket) => this.connections++);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${this.port}`;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  reset(): void {
    this.received.length = 0;
    this.connections = 0;
    this.script = () => ({ status: 204 });
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ReceivedWebhook = {
      at: Date.now(),
      path: req.url ?? '/',
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      ),
      body: Buffer.concat(chunks).toString('utf8'),
    };
    this.received.push(request);
    const answer = this.script(request, this.received.length - 1);
    if (answer === 'hang') {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body ?? '');
  }
}

import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A loopback TCP proxy in front of PostgreSQL that can make its connections go silent:
 * `blackhole()` keeps the connections open so far but stops forwarding on them in both
 * directions, without FIN or RST. That is what a half-open connection (a dropped NAT entry,
 * a peer that vanished) looks like to the client. New connections are forwarded normally.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly silenced = new WeakSet<Socket>();
  private readonly sockets = new Set<Socket>();
  /** Connections accepted so far. */
  accepted = 0;

  constructor(
    private readonly targetHost: string,
    private targetPort: number,
  ) {}

  /** New connections go to this port from now on (a server that came back on another port). */
  retarget(port: number): void {
    this.targetPort = port;
  }

  /** Cuts every open connection at once, as a server going away does. */
  dropAll(): void {
    for (const s of this.sockets) s.destroy();
  }

  async start(): Promise<number> {
    this.server = createServer((client) => {
      this.accepted++;
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => this.sockets.delete(s));
      }
      client.on('data', (chunk) => void (this.silenced.has(client) || upstream.write(chunk)));
      upstream.on('data', (chunk) => void (this.silenced.has(client) || client.write(chunk)));
      client.on('end', () => upstream.end());
      upstream.on('end', () => client.end());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server!.address() as { port: number }).port;
  }

  /** Every connection open now swallows its bytes both ways from here on, and never closes. */
  blackhole(): void {
    for (const s of this.sockets) this.silenced.add(s);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

import {
  type ClientHttp2Session,
  connect,
  constants,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from 'node:http2';

export interface Http2Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One long-lived HTTP/2 connection to an origin (APNs wants connections kept open and many
 * streams on each), re-opened after it closes, errs or receives GOAWAY. A request that gets no
 * answer within `timeoutMs` is cancelled and rejected.
 */
export class Http2Session {
  private session: ClientHttp2Session | undefined;

  constructor(
    private readonly origin: string,
    private readonly ca: string | undefined,
  ) {}

  request(headers: OutgoingHttpHeaders, body: string, timeoutMs: number): Promise<Http2Answer> {
    const session = this.open();
    return new Promise((resolve, reject) => {
      const stream = session.request(headers);
      const chunks: Buffer[] = [];
      let answer: { status: number; headers: IncomingHttpHeaders } | undefined;
      stream.setTimeout(timeoutMs, () => {
        stream.close(constants.NGHTTP2_CANCEL);
        reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
      });
      stream.on('response', (h) => (answer = { status: Number(h[':status']), headers: h }));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () =>
        answer
          ? resolve({ ...answer, body: Buffer.concat(chunks).toString('utf8') })
          : reject(new Error('stream ended without a response')),
      );
      stream.on('error', reject);
      stream.end(body);
    });
  }

  close(): void {
    this.session?.close();
    this.session = undefined;
  }

  private open(): ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = connect(this.origin, this.ca ? { ca: this.ca } : {});
    const forget = () => {
      if (this.session === session) this.session = undefined;
    };
    session.on('error', forget);
    session.on('goaway', forget);
    session.on('close', forget);
    // An idle connection does not keep the process alive at shutdown.
    session.unref();
    this.session = session;
    return session;
  }
}

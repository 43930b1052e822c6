import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';

/** A message the sink accepted: the envelope, the raw RFC 5322 text and mailparser's reading of it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  parsed: ParsedMail;
  user?: string;
}

/** How the sink answers RCPT TO for one address: an SMTP reply code and text, or a stall. */
export type RcptAnswer = { code: number; message: string } | 'stall' | 'accept';

/**
 * A real SMTP server (smtp-server, the library nodemailer's authors ship for this) on loopback,
 * recording every message and answering RCPT TO as the test scripts it by recipient: a 550 for
 * a dead mailbox, a 421 for throttling, a stall past the client's timeout.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  readonly attempts: string[] = [];
  script: (recipient: string) => RcptAnswer = () => 'accept';
  private server: SMTPServer | undefined;
  private readonly stalled = new Set<() => void>();

  constructor(private readonly auth?: { user: string; pass: string }) {}

  async start(): Promise<number> {
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: this.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: !this.auth,
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (this.auth && auth.username === this.auth.user && auth.password === this.auth.pass)
          return callback(null, { user: auth.username });
        const err = Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 });
        callback(err);
      },
      onRcptTo: (address: SMTPServerAddress, _session: SMTPServerSession, callback: (err?: Error | null) => void) => {
        this.attempts.push(address.address);
        const answer = this.script(address.address);
        if (answer === 'accept') return callback();
        if (answer === 'stall') {
          this.stalled.add(() => callback());
          return;
        }
        callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw)
            .then((parsed) => {
              this.received.push({
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
                raw,
                parsed,
                user: session.user as string | undefined,
              });
              callback();
            })
            .catch(callback);
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.server.address() as AddressInfo).port;
  }

  reset(): void {
    this.received.length = 0;
    this.attempts.length = 0;
    this.script = () => 'accept';
  }

  async stop(): Promise<void> {
    for (const release of this.stalled) release();
    this.stalled.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

import { createSign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { snsStringToSign, type SnsMessage } from '../../src/governance/provider-webhooks/verifiers/sns-signature.js';

/**
 * Plays Amazon SNS for tests: an RSA signing certificate served over loopback (as SNS serves
 * its .pem), messages signed the way SNS signs them (v1 SHA1, v2 SHA256), and a SubscribeURL
 * that records its visits.
 */
export class SnsFake {
  private server?: Server;
  base = '';
  cert = '';
  private key = '';
  certFetches = 0;
  confirmations: string[] = [];

  async start(): Promise<string> {
    const pems = await generate([{ name: 'commonName', value: 'sns.amazonaws.com' }], {
      keySize: 2048,
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 2 * 86_400_000),
    } as never);
    this.cert = pems.cert;
    this.key = pems.private;
    this.server = createServer((req, res) => {
      if (req.url?.endsWith('.pem')) {
        this.certFetches++;
        res.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(this.cert);
      } else if (req.url?.startsWith('/confirm')) {
        this.confirmations.push(req.url);
        res.writeHead(200, { 'content-type': 'text/xml' }).end('<ConfirmSubscriptionResponse/>');
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
    return this.base;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** A signed SNS message; `fields` override the defaults (set Signature to tamper afterwards). */
  message(fields: Partial<SnsMessage>, version: '1' | '2' = '1', key = this.key): SnsMessage {
    const m = {
      Type: 'Notification',
      MessageId: crypto.randomUUID(),
      TopicArn: 'arn:aws:sns:eu-west-1:123456789012:ses-events',
      Message: '{}',
      Timestamp: new Date().toISOString(),
      SignatureVersion: version,
      SigningCertURL: `${this.base}SimpleNotificationService-0000000000000000000000.pem`,
      ...fields,
      Signature: '',
    } as SnsMessage;
    m.Signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      .update(snsStringToSign(m))
      .sign(key, 'base64');
    return m;
  }

  privateKey(): string {
    return this.key;
  }
}

import { createVerify, X509Certificate } from 'node:crypto';
import { VerificationError } from './verification.js';

/** The fields of an SNS HTTP(S) message that its signature covers or that route it. */
export interface SnsMessage {
  Type: string;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  SubscribeURL?: string;
  Token?: string;
}

const REQUIRED = [
  'Type',
  'MessageId',
  'TopicArn',
  'Message',
  'Timestamp',
  'SignatureVersion',
  'Signature',
  'SigningCertURL',
] as const;

/** Reads an SNS message from a parsed body; throws naming the first missing field. */
export function snsMessage(body: unknown): SnsMessage {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new Error('an SNS message is a JSON object');
  const b = body as Record<string, unknown>;
  for (const field of REQUIRED) if (typeof b[field] !== 'string') throw new Error(`\`${field}\` is missing`);
  for (const field of ['Subject', 'SubscribeURL', 'Token'] as const)
    if (b[field] !== undefined && b[field] !== null && typeof b[field] !== 'string')
      throw new Error(`\`${field}\` must be a string`);
  return b as unknown as SnsMessage;
}

/**
 * The canonical string SNS signs (docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html):
 * name, newline, value, newline, for a fixed list of fields in byte order, skipping an absent Subject.
 */
export function snsStringToSign(m: SnsMessage): string {
  const fields =
    m.Type === 'Notification'
      ? (['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const)
      : (['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const);
  return fields
    .filter((f) => m[f] !== undefined && m[f] !== null)
    .map((f) => `${f}\n${m[f]}\n`)
    .join('');
}

/** SNS signing certificates and subscription URLs live on sns.<region>.amazonaws.com over https. */
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/**
 * Whether notifyd may fetch this URL: https on an SNS host (a signing certificate also ends in
 * .pem), or, in tests only, under the explicit loopback base SNS_TEST_ENDPOINT_BASE. Anything
 * else would let a forged message make notifyd fetch an attacker's key, or reach an internal address.
 */
export function snsUrlAllowed(url: string, kind: 'certificate' | 'subscribe', testBase?: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (testBase && url.startsWith(testBase)) return true;
  if (u.protocol !== 'https:' || !SNS_HOST.test(u.hostname) || u.port !== '' || u.username || u.password) return false;
  return kind === 'subscribe' || u.pathname.endsWith('.pem');
}

/**
 * Verifies the message's signature with the public key of its signing certificate:
 * SignatureVersion 1 is RSA-SHA1, 2 is RSA-SHA256. The certificate must be currently valid.
 */
export function verifySnsSignature(m: SnsMessage, certificatePem: string, now: Date = new Date()): void {
  const algorithm = m.SignatureVersion === '1' ? 'RSA-SHA1' : m.SignatureVersion === '2' ? 'RSA-SHA256' : null;
  if (!algorithm) throw new VerificationError(`SignatureVersion ${m.SignatureVersion} is not 1 or 2`);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certificatePem);
  } catch {
    throw new VerificationError('the signing certificate is not a valid X.509 certificate');
  }
  if (now < new Date(cert.validFrom) || now > new Date(cert.validTo))
    throw new VerificationError('the signing certificate is not valid now');
  const ok = createVerify(algorithm).update(snsStringToSign(m), 'utf8').verify(cert.publicKey, m.Signature, 'base64');
  if (!ok) throw new VerificationError('the SNS signature does not match the message');
}

import { generateKeyPairSync, sign } from 'node:crypto';
import { sendgridPublicKey } from '../../../config/sections/sendgrid-public-key.js';
import { verifySendgridSignature } from './sendgrid-ecdsa.js';

/** Signed as SendGrid does: ECDSA P-256 / SHA-256, DER, over timestamp + raw body. */
describe('verifySendgridSignature', () => {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicB64 = pair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const key = sendgridPublicKey(publicB64);
  const now = new Date('2026-11-30T10:00:00Z');
  const ts = String(Math.floor(now.getTime() / 1000));
  const body = Buffer.from('[{"email":"a@example.com","event":"delivered","sg_event_id":"e1"}]\r\n');
  const sig = (priv = pair.privateKey, t = ts, raw = body) =>
    sign('sha256', Buffer.concat([Buffer.from(t), raw]), priv).toString('base64');
  const headers = (s: string, t = ts) => ({
    'x-twilio-email-event-webhook-signature': s,
    'x-twilio-email-event-webhook-timestamp': t,
  });
  const check = (h: Record<string, string>, raw = body) =>
    verifySendgridSignature(key, h, raw, { toleranceSecs: 300, now });

  it('accepts a valid signature (the key as SendGrid shows it: base64 SPKI, starting MFkw)', () => {
    expect(publicB64.startsWith('MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE')).toBe(true);
    expect(() => check(headers(sig()))).not.toThrow();
  });

  it('refuses a tampered body (a trailing CRLF counts), a changed timestamp and another key', () => {
    expect(() => check(headers(sig()), body.subarray(0, body.length - 2))).toThrow(/does not match/);
    const later = String(Number(ts) + 1);
    expect(() => check(headers(sig(), later))).toThrow(/does not match/);
    expect(() => check(headers(sig(other.privateKey)))).toThrow(/does not match/);
    expect(() => check(headers(Buffer.from('not a DER signature').toString('base64')))).toThrow(/does not match/);
  });

  it('refuses a stale timestamp and missing headers', () => {
    const old = String(Number(ts) - 301);
    expect(() => check(headers(sig(pair.privateKey, old), old))).toThrow(/more than 300 s away/);
    expect(() => check({ 'x-twilio-email-event-webhook-timestamp': ts })).toThrow(/missing/);
    expect(() => check({ 'x-twilio-email-event-webhook-signature': sig() })).toThrow(/missing/);
  });

  it('refuses keys that are not ECDSA P-256', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ format: 'der', type: 'spki' })
      .toString('base64');
    expect(() => sendgridPublicKey(rsa)).toThrow(/P-256/);
    expect(() => sendgridPublicKey('bm90IGEga2V5')).toThrow();
  });
});

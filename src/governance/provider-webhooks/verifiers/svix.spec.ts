import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifySvix } from './svix.js';
import { VerificationError } from './verification.js';

/** Vectors signed by the `standardwebhooks` library (Svix's reference), checked by our verifier. */
describe('verifySvix', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const otherSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const now = new Date('2026-11-30T10:00:00Z');
  const body = '{"type":"email.delivered",  "data":{"email_id":"e1"}}';
  const sign = (s: string, id: string, at: Date, payload: string) => new Webhook(s).sign(id, at, payload);
  const headers = (sig: string, at = now, id = 'msg_1') => ({
    'svix-id': id,
    'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
    'svix-signature': sig,
  });
  const verify = (h: Record<string, string>, raw = body, s = secret) =>
    verifySvix(s, h, Buffer.from(raw), { toleranceSecs: 300, now });

  it('accepts a valid signature over the raw bytes and returns the event id', () => {
    expect(verify(headers(sign(secret, 'msg_1', now, body)))).toEqual({
      id: 'msg_1',
      timestamp: Math.floor(now.getTime() / 1000),
    });
  });

  it('refuses a tampered body (even one that parses to the same JSON)', () => {
    const sig = sign(secret, 'msg_1', now, body);
    expect(() => verify(headers(sig), JSON.stringify(JSON.parse(body)))).toThrow(VerificationError);
    expect(() => verify(headers(sig), body.replace('e1', 'e2'))).toThrow(/no svix-signature matches/);
  });

  it('refuses a signature made with another secret', () => {
    expect(() => verify(headers(sign(otherSecret, 'msg_1', now, body)))).toThrow(/no svix-signature matches/);
  });

  it('refuses a changed id (the id is signed)', () => {
    expect(() => verify(headers(sign(secret, 'msg_1', now, body), now, 'msg_2'))).toThrow(/no svix-signature matches/);
  });

  it('refuses stale and future timestamps beyond the tolerance, accepts within', () => {
    const old = new Date(now.getTime() - 301_000);
    expect(() => verify(headers(sign(secret, 'msg_1', old, body), old))).toThrow(/more than 300 s away/);
    const future = new Date(now.getTime() + 301_000);
    expect(() => verify(headers(sign(secret, 'msg_1', future, body), future))).toThrow(/more than 300 s away/);
    const recent = new Date(now.getTime() - 299_000);
    expect(verify(headers(sign(secret, 'msg_1', recent, body), recent)).id).toBe('msg_1');
  });

  it('refuses missing headers and a malformed timestamp', () => {
    const h = headers(sign(secret, 'msg_1', now, body));
    for (const name of ['svix-id', 'svix-timestamp', 'svix-signature'] as const) {
      const partial: Record<string, string> = { ...h };
      delete partial[name];
      expect(() => verify(partial)).toThrow(/missing svix-id, svix-timestamp or svix-signature/);
    }
    expect(() => verify({ ...h, 'svix-timestamp': '12abc' })).toThrow(/not a Unix time/);
  });

  it('accepts when one of several signatures is valid (secret rotation), refuses when none is', () => {
    const good = sign(secret, 'msg_1', now, body);
    const wrong = sign(otherSecret, 'msg_1', now, body);
    expect(verify(headers(`${wrong} v2,abc ${good}`)).id).toBe('msg_1');
    expect(() => verify(headers(`${wrong} v1,${Buffer.from('x').toString('base64')}`))).toThrow(VerificationError);
    // A valid signature under an unknown version is not accepted.
    expect(() => verify(headers(good.replace('v1,', 'v2,')))).toThrow(VerificationError);
  });
});

import { createHmac } from 'node:crypto';
import { verifyMetaSignature } from './meta-signature.js';

describe('verifyMetaSignature', () => {
  const secret = 'meta-app-secret-0123456789abcdef';
  // Meta signs its own escaped form ("\u00e9"); the raw bytes are what must verify.
  const body = Buffer.from(
    '{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"value":{"x":"caf\\u00e9"}}]}]}',
  );
  const sign = (key: string, raw: Buffer) => `sha256=${createHmac('sha256', key).update(raw).digest('hex')}`;

  it('accepts a valid signature (hex in either case)', () => {
    expect(() => verifyMetaSignature(secret, sign(secret, body), body)).not.toThrow();
    expect(() =>
      verifyMetaSignature(secret, sign(secret, body).toUpperCase().replace('SHA256=', 'sha256='), body),
    ).not.toThrow();
  });

  it('refuses a body re-serialised after parsing, a tampered body and another secret', () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString())));
    expect(() => verifyMetaSignature(secret, sign(secret, body), reserialised)).toThrow(/does not match/);
    expect(() =>
      verifyMetaSignature(secret, sign(secret, body), Buffer.from(body.toString().replace('"1"', '"2"'))),
    ).toThrow(/does not match/);
    expect(() => verifyMetaSignature(secret, sign('another-secret-0123456789abcd', body), body)).toThrow(
      /does not match/,
    );
  });

  it('refuses a missing header and a malformed one (sha1 form, short hex)', () => {
    expect(() => verifyMetaSignature(secret, undefined, body)).toThrow(/missing X-Hub-Signature-256/);
    expect(() =>
      verifyMetaSignature(secret, `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`, body),
    ).toThrow(/not sha256=/);
    expect(() => verifyMetaSignature(secret, 'sha256=abcd', body)).toThrow(/not sha256=/);
  });
});

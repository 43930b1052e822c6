import { createPublicKey, type KeyObject } from 'node:crypto';

/**
 * The public key SendGrid shows for a signed Event Webhook: base64 of a DER SubjectPublicKeyInfo
 * for an ECDSA P-256 key. Throws when the value is not one (caught at config time).
 */
export function sendgridPublicKey(base64: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(base64.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error('not an ECDSA P-256 public key');
  return key;
}

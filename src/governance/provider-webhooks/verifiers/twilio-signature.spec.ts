import { createHmac } from 'node:crypto';
import { verifyTwilioSignature } from './twilio-signature.js';

/**
 * Vectors computed here with node:crypto from Twilio's documented algorithm (base64
 * HMAC-SHA1 of the URL followed by each parameter's name and value, sorted by name), checked
 * by the SDK-backed verifier.
 */
describe('verifyTwilioSignature', () => {
  const token = '12345678901234567890123456789012';
  const url = 'https://notifyd.example.com/webhooks/twilio/status?job=6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f';
  const params = { MessageStatus: 'delivered', MessageSid: 'SM123', AccountSid: 'AC1', To: '+33600000001' };
  const sign = (key: string, u: string, p: Record<string, string>) =>
    createHmac('sha1', key)
      .update(
        u +
          Object.keys(p)
            .sort()
            .map((k) => k + p[k])
            .join(''),
      )
      .digest('base64');

  it('accepts a valid signature', async () => {
    await expect(verifyTwilioSignature(token, sign(token, url, params), url, params)).resolves.toBeUndefined();
  });

  it('accepts a signature made over the URL with its default port (Twilio may sign either form)', async () => {
    const withPort = url.replace('notifyd.example.com', 'notifyd.example.com:443');
    await expect(verifyTwilioSignature(token, sign(token, withPort, params), url, params)).resolves.toBeUndefined();
  });

  it('refuses a changed parameter, a changed URL, another token and a missing header', async () => {
    const sig = sign(token, url, params);
    await expect(verifyTwilioSignature(token, sig, url, { ...params, MessageStatus: 'failed' })).rejects.toThrow(
      /does not match/,
    );
    await expect(verifyTwilioSignature(token, sig, url.replace('job=6f', 'job=7f'), params)).rejects.toThrow(
      /does not match/,
    );
    await expect(
      verifyTwilioSignature(token, sign('another-token-0123456789abcdef00', url, params), url, params),
    ).rejects.toThrow(/does not match/);
    await expect(verifyTwilioSignature(token, undefined, url, params)).rejects.toThrow(/missing X-Twilio-Signature/);
  });
});

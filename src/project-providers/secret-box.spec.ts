import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box.js';

describe('SecretBox (AES-256-GCM)', () => {
  const k1 = { id: 'k1', key: randomBytes(32) };
  const k2 = { id: 'k2', key: randomBytes(32) };

  it('seals and opens; the sealed text holds neither the secret nor the same bytes twice', () => {
    const box = new SecretBox(k1);
    const a = box.seal('{"api_key":"re_secret"}', 'acme/email');
    const b = box.seal('{"api_key":"re_secret"}', 'acme/email');
    expect(a).not.toContain('re_secret');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1.k1.')).toBe(true);
    expect(box.open(a, 'acme/email')).toBe('{"api_key":"re_secret"}');
  });

  it('refuses a value moved to another row or tampered with', () => {
    const box = new SecretBox(k1);
    const sealed = box.seal('secret', 'acme/email');
    expect(() => box.open(sealed, 'other/email')).toThrow();
    const parts = sealed.split('.');
    parts[4] = Buffer.from('x' + Buffer.from(parts[4], 'base64url').toString('latin1').slice(1), 'latin1').toString(
      'base64url',
    );
    expect(() => box.open(parts.join('.'), 'acme/email')).toThrow();
  });

  it('after rotation opens values of a previous key, seals with the new one, and names a missing key', () => {
    const old = new SecretBox(k1).seal('secret', 'acme/email');
    const rotated = new SecretBox(k2, [k1]);
    expect(rotated.open(old, 'acme/email')).toBe('secret');
    expect(SecretBox.keyIdOf(rotated.seal('secret', 'acme/email'))).toBe('k2');
    expect(() => new SecretBox(k2).open(old, 'acme/email')).toThrow(/key 'k1'.*NOTIFYD_PREVIOUS_SECRET_KEYS/);
  });
});

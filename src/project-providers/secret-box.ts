import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SecretKey {
  id: string;
  key: Buffer;
}

/**
 * AES-256-GCM for credentials at rest. Each sealed value records the id of the key that sealed
 * it (rotation: older keys stay readable while listed), a random 96-bit IV and the tag; the
 * associated data binds it to its row (project × channel), so a value copied to another row
 * does not open. Format: `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class SecretBox {
  constructor(
    private readonly current: SecretKey | undefined,
    private readonly previous: readonly SecretKey[] = [],
  ) {}

  get enabled(): boolean {
    return this.current !== undefined;
  }

  get currentKeyId(): string | undefined {
    return this.current?.id;
  }

  seal(plaintext: string, context: string): string {
    if (!this.current) throw new Error('NOTIFYD_SECRET_KEY is not set');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v1',
      this.current.id,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, keyId, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !body) throw new Error('unreadable sealed value');
    const key = [this.current, ...this.previous].find((k) => k?.id === keyId);
    if (!key)
      throw new Error(
        `sealed with key '${keyId}', which is neither NOTIFYD_SECRET_KEY_ID nor listed in NOTIFYD_PREVIOUS_SECRET_KEYS`,
      );
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** The key id a sealed value was sealed with. */
  static keyIdOf(sealed: string): string {
    return sealed.split('.')[1] ?? '';
  }
}

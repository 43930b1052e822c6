// jose is imported when the first token is signed: a process without this platform never loads it.
import type { importPKCS8 } from 'jose';
import type { ApnsConfig } from '../../../config/sections/push-providers.config.js';

/**
 * The APNs provider authentication token (ES256 JWT: `kid` = key id, `iss` = team, `iat`).
 * Apple wants it reused and refreshed no more often than every 20 minutes and no later than
 * 60 (refreshing too often is refused with 429 TooManyProviderTokenUpdates), so one token per
 * process is signed and kept for APNS_TOKEN_REFRESH_SECS (20–59 min, default 50). `renew`
 * replaces a token APNs declared expired, once, however many requests saw it.
 */
export class ApnsProviderToken {
  private current: { jwt: string; iat: number; signedAt: number } | undefined;
  private signing: Promise<string> | undefined;
  private key: ReturnType<typeof importPKCS8> | undefined;
  /** Tokens signed so far (observability and tests). */
  signed = 0;

  constructor(
    private readonly config: ApnsConfig,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<string> {
    if (this.current && this.now() - this.current.signedAt < this.config.tokenRefreshMs) return this.current.jwt;
    return this.sign();
  }

  /** APNs answered ExpiredProviderToken to `stale`: sign a new one unless another request already did. */
  async renew(stale: string): Promise<string> {
    if (this.current && this.current.jwt !== stale) return this.current.jwt;
    return this.sign();
  }

  private sign(): Promise<string> {
    this.signing ??= (async () => {
      const { importPKCS8, SignJWT } = await import('jose');
      this.key ??= importPKCS8(this.config.privateKey, 'ES256');
      // Strictly later than the previous iat, so that a renewal never reproduces the refused token.
      const iat = Math.max(Math.floor(this.now() / 1000), (this.current?.iat ?? 0) + 1);
      const jwt = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: this.config.keyId })
        .setIssuer(this.config.teamId)
        .setIssuedAt(iat)
        .sign(await this.key);
      this.current = { jwt, iat, signedAt: this.now() };
      this.signed++;
      return jwt;
    })().finally(() => (this.signing = undefined));
    return this.signing;
  }
}

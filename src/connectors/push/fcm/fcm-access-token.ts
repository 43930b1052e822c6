// jose is imported when the first token is signed: a process without this platform never loads it.
import type { importPKCS8 } from 'jose';
import type { FcmConfig } from '../../../config/sections/push-providers.config.js';
import type { Fetcher } from '../../json-http.js';
import { parseRetryAfter } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** A token is renewed this long before it expires, so that no request carries a dying one. */
const RENEW_BEFORE_MS = 5 * 60_000;

/**
 * OAuth2 access tokens for FCM HTTP v1 from a service account (RFC 7523 JWT bearer grant, as
 * google-auth-library does it): an RS256 assertion signed with the key file's private key is
 * exchanged at the token URL; the token is cached until five minutes before it expires, and
 * concurrent callers share one exchange. `invalidate` drops a token FCM refused (401).
 */
export class FcmAccessTokens {
  private cached: { token: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;
  private key: ReturnType<typeof importPKCS8> | undefined;
  /** Exchanges done (observability and tests). */
  exchanges = 0;

  constructor(
    private readonly config: FcmConfig,
    private readonly fetcher: Fetcher,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<string> {
    if (this.cached && this.now() < this.cached.renewAt) return this.cached.token;
    this.pending ??= this.exchange().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Forget `token` if it is the cached one (FCM answered 401 with it). */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async exchange(): Promise<string> {
    const { importPKCS8, SignJWT } = await import('jose');
    this.key ??= importPKCS8(this.config.privateKey, 'RS256');
    const issuedAt = Math.floor(this.now() / 1000);
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(this.config.clientEmail)
      .setAudience(this.config.tokenUrl)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 3600)
      .sign(await this.key);
    this.exchanges++;
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const res = await this.fetcher(this.config.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = res.status;
      text = await res.text();
      retryAfter = res.headers.get('retry-after');
    } catch (err) {
      const e = err as { name?: string; cause?: { code?: string }; message?: string };
      throw ProviderError.transient(
        `FCM token endpoint unreachable: ${e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message)}`,
      );
    }
    let body: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: classified by status below.
    }
    if (status === 200 && typeof body.access_token === 'string') {
      const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
      this.cached = { token: body.access_token, renewAt: this.now() + Math.max(0, lifetimeMs - RENEW_BEFORE_MS) };
      return body.access_token;
    }
    const why = `FCM token endpoint HTTP ${status}${body.error ? `: ${String(body.error)}${body.error_description ? ` (${String(body.error_description)})` : ''}` : ''}`;
    if (status === 429) throw ProviderError.rateLimited(why, parseRetryAfter(retryAfter));
    if (status >= 500 || status === 408) throw ProviderError.transient(why);
    // invalid_grant / invalid_client: a revoked or deleted key; retrying will not help.
    throw ProviderError.permanent(`${why}: check FCM_SERVICE_ACCOUNT_FILE (the key may be revoked or deleted)`);
  }
}

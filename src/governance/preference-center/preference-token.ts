import { signClaim, type SigningKey } from '../../common/crypto/signed-claim.js';
import { linkVerifier } from '../../common/unsubscribe/link-token.js';

/** What a preference-center link stands for: one subscriber of one project, until it expires. */
export interface PreferenceClaim {
  projectId: string;
  subscriberId: string;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

/** The unsubscribe links' lifetime (400 days): a preference link sits in the same mailboxes. */
export { TOKEN_LIFETIME_SECONDS } from '../../common/unsubscribe/unsubscribe-token.js';

// Its own version prefix and its own secret (link-keys.ts): never interchangeable with an unsubscribe token.
const VERSION = 'p1';

/** `p1.<key id>.<claim>.<HMAC>` (signed-claim.ts); nothing stored. */
export function signPreferenceToken(claim: PreferenceClaim, key: SigningKey): string {
  return signClaim(VERSION, { p: claim.projectId, s: claim.subscriberId, e: claim.expiresAt }, key);
}

/** The claim of a genuine, unexpired token; undefined for anything else (never throws). */
export const verifyPreferenceToken = linkVerifier(VERSION, (c): PreferenceClaim | undefined =>
  typeof c.p === 'string' && typeof c.s === 'string'
    ? { projectId: c.p, subscriberId: c.s, expiresAt: c.e }
    : undefined,
);

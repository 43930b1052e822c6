import { type SigningKey, verifiedClaim } from '../crypto/signed-claim.js';

/** A signed link's claim as signed (short keys), with `e`, its expiry in seconds since the epoch. */
export type LinkClaim = Record<string, unknown> & { e: number };

/**
 * The verifier of one kind of signed link (`<version>.<key id>.<claim>.<HMAC>`, signed-claim.ts):
 * the claim of a genuine, unexpired token as `read` makes it; undefined for anything else, or
 * when `read` refuses the claim's fields (never throws).
 */
export function linkVerifier<T>(version: string, read: (claim: LinkClaim) => T | undefined) {
  return (token: string, keys: readonly SigningKey[], nowSeconds = Math.floor(Date.now() / 1000)): T | undefined => {
    const claim = verifiedClaim(token, version, keys);
    if (!claim || typeof claim.e !== 'number' || claim.e < nowSeconds) return undefined;
    return read(claim as LinkClaim);
  };
}

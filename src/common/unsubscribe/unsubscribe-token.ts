import { signClaim, type SigningKey } from '../crypto/signed-claim.js';
import { linkVerifier } from './link-token.js';

/** What an unsubscribe link stands for: one address of one project, optionally one topic. */
export interface UnsubscribeClaim {
  projectId: string;
  channel: string;
  address: string;
  topic: string | null;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

export type { SigningKey } from '../crypto/signed-claim.js';

/** notifyd keeps links valid for 400 days (longer than any mailbox keeps a newsletter). */
export const TOKEN_LIFETIME_SECONDS = 400 * 86_400;
const VERSION = 'u1';

/** `u1.<key id>.<claim>.<HMAC>` (signed-claim.ts): nothing is stored, the link carries its claim. */
export function signUnsubscribeToken(claim: UnsubscribeClaim, key: SigningKey): string {
  return signClaim(
    VERSION,
    { p: claim.projectId, c: claim.channel, a: claim.address, t: claim.topic ?? undefined, e: claim.expiresAt },
    key,
  );
}

/** The claim of a genuine, unexpired token; undefined for anything else (never throws). */
export const verifyUnsubscribeToken = linkVerifier(VERSION, (c): UnsubscribeClaim | undefined => {
  if (typeof c.p !== 'string' || typeof c.c !== 'string' || typeof c.a !== 'string') return undefined;
  if (c.t !== undefined && typeof c.t !== 'string') return undefined;
  return { projectId: c.p, channel: c.c, address: c.a, topic: (c.t as string | undefined) ?? null, expiresAt: c.e };
});

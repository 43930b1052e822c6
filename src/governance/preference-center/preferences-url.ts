import type { SigningKey } from '../../common/crypto/signed-claim.js';
import { signPreferenceToken, TOKEN_LIFETIME_SECONDS } from './preference-token.js';

/** Where preference-center links point, under PUBLIC_URL. */
export const PREFERENCES_PATH = '/p/';

interface Signer {
  publicUrl: string | undefined;
  key: SigningKey;
}

/**
 * This process's signer, set by PreferenceCenterService when the application starts (as
 * unsubscribe-url.ts does), so that the worker signs links without an injection.
 */
let signer: Signer | undefined;

export function registerPreferencesSigner(next: Signer | undefined): void {
  signer = next;
}

/** The signed path of a subscriber's page (`/p/<token>`), or undefined before a signer is registered. */
export function preferencesPath(
  subscriber: { projectId: string; subscriberId: string },
  nowSeconds = Math.floor(Date.now() / 1000),
): string | undefined {
  if (!signer) return undefined;
  const token = signPreferenceToken(
    {
      projectId: subscriber.projectId,
      subscriberId: subscriber.subscriberId,
      expiresAt: nowSeconds + TOKEN_LIFETIME_SECONDS,
    },
    signer.key,
  );
  return `${PREFERENCES_PATH}${token}`;
}

/**
 * `{{ preferences_url }}` of a message to a subscriber: PUBLIC_URL + the signed path. Undefined
 * without PUBLIC_URL (no public address to point to, as for unsubscribe links) or without a
 * subscriber (a raw address has no preferences).
 */
export function preferencesUrl(job: { projectId: string; subscriberId: string | null }): string | undefined {
  if (!signer?.publicUrl || !job.subscriberId) return undefined;
  return `${signer.publicUrl}${preferencesPath({ projectId: job.projectId, subscriberId: job.subscriberId })}`;
}

import { deriveKey } from '../common/crypto/keyed-hmac.js';
import type { SigningKey } from '../common/crypto/signed-claim.js';
import type { AppConfig } from '../config/app-config.js';

/**
 * One key of the ring that signs public links, and the secret it gives each kind of link: a
 * tracking or preference link can never pass for an unsubscribe link (different secrets), and both name the
 * key id, so both rotate the same way.
 */
export interface LinkKey {
  id: string;
  unsubscribe: string;
  tracking: string;
  /** Signs preference-center links (a subscriber's page), apart from both others. */
  preferences: string;
}

export interface LinkKeyRing {
  /** Signs new links. */
  current: LinkKey;
  /** Verifies links: the current key first, then every key still accepted after a rotation. */
  accepted: LinkKey[];
}

/** The id written into links signed with a key derived from JWT_SECRET (or one of JWT_PREVIOUS_SECRETS). */
export const JWT_DERIVED_KEY_ID = 'j';

// Labels of the derivations: the same as before key rings existed, so links already sent still verify.
const UNSUBSCRIBE_LABEL = 'notifyd unsubscribe links';
const TRACKING_LABEL = 'notifyd tracking links';
const PREFERENCES_LABEL = 'notifyd preference links';

const fromJwtSecret = (secret: string): LinkKey => ({
  id: JWT_DERIVED_KEY_ID,
  unsubscribe: deriveKey(secret, UNSUBSCRIBE_LABEL),
  tracking: deriveKey(secret, TRACKING_LABEL),
  preferences: deriveKey(secret, PREFERENCES_LABEL),
});
const fromLinkSecret = (id: string, secret: string): LinkKey => ({
  id,
  unsubscribe: secret,
  tracking: deriveKey(secret, TRACKING_LABEL),
  preferences: deriveKey(secret, PREFERENCES_LABEL),
});

/**
 * The link keys of this process. Current: UNSUBSCRIBE_SECRET (id UNSUBSCRIBE_KEY_ID), else a key
 * derived from JWT_SECRET (id `j`). Accepted as well: UNSUBSCRIBE_PREVIOUS_KEYS, and the keys
 * derived from JWT_SECRET and JWT_PREVIOUS_SECRETS (so that setting UNSUBSCRIBE_SECRET, or
 * rotating JWT_SECRET, leaves links already sent working). Throws when there is no secret at all:
 * a link key is never derived from an empty or well-known value (issue 18).
 */
export function linkKeyRing(config: Pick<AppConfig, 'auth' | 'unsubscribe'>): LinkKeyRing {
  const { auth, unsubscribe } = config;
  const own = unsubscribe.secret ? fromLinkSecret(unsubscribe.keyId, unsubscribe.secret) : undefined;
  const derived = [auth.jwtSecret, ...auth.jwtPreviousSecrets]
    .filter((s): s is string => Boolean(s))
    .map(fromJwtSecret);
  const current = own ?? (auth.jwtSecret ? derived[0] : undefined);
  if (!current)
    throw new Error(
      'Unsubscribe and tracking links need a secret: set JWT_SECRET (at least 16 random characters, e.g. openssl rand -hex 24) or UNSUBSCRIBE_SECRET.',
    );
  const previous = unsubscribe.previousKeys.map((k) => fromLinkSecret(k.id, k.secret));
  return { current, accepted: [current, ...[...previous, ...derived].filter((k) => k !== current)] };
}

/** One kind of link's keys, from the ring: `current` signs new links, `accepted` verifies them. */
export interface LinkSigningKeys {
  current: SigningKey;
  accepted: SigningKey[];
}

/** The ring's keys for one kind of link, each carrying that kind's secret. Throws as linkKeyRing does. */
export function linkSigningKeys(
  config: Pick<AppConfig, 'auth' | 'unsubscribe'>,
  kind: 'unsubscribe' | 'tracking' | 'preferences',
): LinkSigningKeys {
  const ring = linkKeyRing(config);
  const keyOf = (k: LinkKey): SigningKey => ({ id: k.id, secret: k[kind] });
  return { current: keyOf(ring.current), accepted: ring.accepted.map(keyOf) };
}

import { defineSection } from '../define-section.js';
import { envString } from '../env-helpers.js';

const HINT = 'use at least 16 random characters, e.g. the output of `openssl rand -hex 24`';

/**
 * Keys of the one-click unsubscribe links (HMAC-SHA256). A link names the key that signed it,
 * so keys rotate without breaking links already sent: set a new UNSUBSCRIBE_SECRET and
 * UNSUBSCRIBE_KEY_ID and move the old pair to UNSUBSCRIBE_PREVIOUS_KEYS. Unset: a key derived
 * from JWT_SECRET (id "j").
 */
export const unsubscribeSection = defineSection(
  {
    /** Signs new unsubscribe links. */
    UNSUBSCRIBE_SECRET: envString({ min: 16, hint: HINT }),
    /** The id of UNSUBSCRIBE_SECRET, written into each link (1–16 letters or digits). */
    UNSUBSCRIBE_KEY_ID: envString({
      pattern: /^[A-Za-z0-9]{1,16}$/,
      hint: 'must be 1–16 letters or digits, e.g. 2026a',
    }),
    /** Older keys still accepted: `id:secret` pairs separated by commas. */
    UNSUBSCRIBE_PREVIOUS_KEYS: envString({
      pattern: /^[A-Za-z0-9]{1,16}:[^,\s]{16,}(,[A-Za-z0-9]{1,16}:[^,\s]{16,})*$/,
      hint: 'must be a comma-separated list of id:secret pairs (id 1–16 letters or digits, secret at least 16 characters), e.g. 2025b:9f3c…',
    }),
    /**
     * The JWT_SECRET of the notifyd 0.x instance this one replaces: unsubscribe, click and open
     * links that 0.x put in email already sent (its `base64url(payload).base64url(HMAC)` format)
     * keep working. Never signs anything new. docs/MIGRATING.md.
     */
    JWT_LEGACY_SECRET: envString({ min: 16, hint: HINT }).refine((v) => v !== 'change-me-in-production', {
      message:
        "is notifyd 0.x's built-in default (change-me-in-production), which anyone can sign links with: links signed with it cannot be trusted, so they are not accepted",
    }),
  },
  (env) => ({
    secret: env.UNSUBSCRIBE_SECRET,
    keyId: env.UNSUBSCRIBE_KEY_ID ?? '1',
    legacySecret: env.JWT_LEGACY_SECRET,
    previousKeys: (env.UNSUBSCRIBE_PREVIOUS_KEYS ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => ({ id: pair.slice(0, pair.indexOf(':')), secret: pair.slice(pair.indexOf(':') + 1) })),
  }),
);

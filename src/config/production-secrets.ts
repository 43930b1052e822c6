/**
 * The secrets a production start cannot run without. A start is a production one when the
 * operator gives a database (DATABASE_URL) or an admin key (ADMIN_API_KEY); the embedded first
 * start, with neither, generates JWT_SECRET and keeps it in NOTIFYD_DATA_DIR/credentials.json.
 *
 * JWT_SECRET is the one root secret: it signs subscriber tokens, and the unsubscribe and
 * tracking link keys and the webhook secret key are derived from it unless UNSUBSCRIBE_SECRET and
 * WEBHOOK_SECRET_KEY are set. Without it those keys used to be HMACs of the empty string, which
 * anyone can compute: forged unsubscribe links and an open redirect. UNSUBSCRIBE_SECRET alone is
 * not enough (subscriber tokens and webhook secrets still need JWT_SECRET), and
 * NOTIFYD_SECRET_KEY stays optional: without it per-project provider credentials are refused,
 * never stored in the clear.
 */
export function missingProductionSecrets(env: NodeJS.ProcessEnv): string[] {
  // Blank counts as unset, as everywhere in the config (env-helpers.ts).
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if (!(set('DATABASE_URL') || set('ADMIN_API_KEY')) || set('JWT_SECRET')) return [];
  return [
    'JWT_SECRET is required when DATABASE_URL or ADMIN_API_KEY is set: set it to at least 16 random characters (openssl rand -hex 24). ' +
      'It signs subscriber tokens and the unsubscribe and tracking links; keep it stable, and list the old one in JWT_PREVIOUS_SECRETS when you rotate it.',
  ];
}

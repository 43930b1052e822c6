/**
 * `npm run dev` / `notifyd dev`: the development profile. It only fills variables the developer
 * left unset, so anything set explicitly wins; without it (`notifyd serve`, Docker) the
 * production defaults stay as they are: bind 0.0.0.0, CORS for the two usual dev servers only,
 * user-supplied URLs never reach loopback.
 */
export const DEV_PROFILE: Readonly<Record<string, string>> = {
  NOTIFYD_PROFILE: 'dev',
  // Only this machine can reach the instance (and its generated admin key).
  HOST: '127.0.0.1',
  // The usual local front-end dev servers, by name and by address.
  CORS_ORIGINS: [3000, 4200, 5173, 8000, 8080]
    .flatMap((port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`])
    .join(','),
  // Webhook and chat URLs may point at a receiver on this machine.
  OUTBOUND_ALLOW_LOOPBACK: 'true',
};

/** The environment with the profile's defaults under it; refused when NODE_ENV=production. */
export function withDevProfile(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.NODE_ENV?.trim().toLowerCase() === 'production') {
    throw new Error(
      'notifyd dev is the development profile and NODE_ENV=production is set: use `notifyd serve` in production, or unset NODE_ENV.',
    );
  }
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of Object.entries(DEV_PROFILE)) if (!merged[name]?.trim()) merged[name] = value;
  return merged;
}

/** The banner's lines for the development profile (empty when it is not on). */
export function devProfileBanner(
  env: NodeJS.ProcessEnv,
  effective: { host: string; corsOrigins: readonly string[]; allowLoopback: boolean },
): string {
  if (env.NOTIFYD_PROFILE !== 'dev') return '';
  return [
    '',
    'Development profile (npm run dev): not for production.',
    `  Listening on ${effective.host} only (HOST).`,
    `  CORS allows ${effective.corsOrigins.length ? effective.corsOrigins.join(', ') : 'any origin'} (CORS_ORIGINS).`,
    `  Webhook and chat URLs ${effective.allowLoopback ? 'may' : 'may not'} point at this machine (OUTBOUND_ALLOW_LOOPBACK=${effective.allowLoopback}).`,
    '',
  ].join('\n');
}

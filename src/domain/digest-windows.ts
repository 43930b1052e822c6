/*
 * The time windows and formats an operator report accepts: the digest's, and template metrics'
 * (observability), which reads the same windows without importing the digest.
 */

/** Accepted windows and their length in seconds. `1d` is notifyd's alias of `24h`. */
export const DIGEST_WINDOWS = { '1h': 3_600, '6h': 21_600, '24h': 86_400, '7d': 604_800, '30d': 2_592_000 } as const;
export type DigestWindow = keyof typeof DIGEST_WINDOWS;
export const DIGEST_WINDOW_ALIASES: Record<string, DigestWindow> = { '1d': '24h' };

export const DIGEST_FORMATS = ['json', 'markdown'] as const;
export type DigestFormat = (typeof DIGEST_FORMATS)[number];

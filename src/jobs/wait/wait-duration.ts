/*
 * The `wait` parameter's rule, without class-validator (its decorator is in
 * is-wait-duration.validator.ts): the worker's enqueue path reads it and never loads the
 * validation library.
 */

/** The longest a request may wait for an outcome: well below the usual 60 s proxy and client timeouts. */
export const MAX_WAIT_MS = 30_000;

const DURATION = /^(\d{1,6})(ms|s)$/;
const UNIT_MS = { ms: 1, s: 1_000 } as const;

export const WAIT_HELP = 'must be a duration such as 10s or 500ms, at most 30s';

/** "10s" → 10 000; undefined when the text is not a duration or exceeds MAX_WAIT_MS. */
export function parseWait(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = DURATION.exec(value.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return ms <= MAX_WAIT_MS ? ms : undefined;
}

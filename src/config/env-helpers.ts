import { z } from 'zod';

/**
 * Small builders for environment variables. Every variable is optional text in the
 * environment; these turn it into a typed value and give zod a message that tells the
 * operator what to write instead.
 */

/** An empty string in a .env file means "unset", as in most twelve-factor tools. */
const blankToUndefined = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** A number in [min, max]; `integer` refuses fractions. Unset → the default. */
function envNumeric(opts: { default: number; min: number; max: number; integer: boolean }) {
  const shape = opts.integer ? /^-?\d+$/ : /^\d+(\.\d+)?$/;
  const kind = opts.integer ? 'a whole number' : 'a number';
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(shape, { message: `must be ${kind} between ${opts.min} and ${opts.max}` })
      .transform(Number)
      .pipe(
        z
          .number()
          .min(opts.min, { message: `must be at least ${opts.min}` })
          .max(opts.max, { message: `must be at most ${opts.max}` }),
      )
      .optional()
      .transform((v) => v ?? opts.default),
  );
}

export const envInt = (opts: { default: number; min: number; max: number }) => envNumeric({ ...opts, integer: true });
export const envNumber = (opts: { default: number; min: number; max: number }) =>
  envNumeric({ ...opts, integer: false });

/**
 * A queue runner's idle poll, in ms (jobs, webhook deliveries, workflow runs): a fallback, as
 * signals or an emit wake the runner earlier. 10 ms to 10 minutes.
 */
export const envPollIntervalMs = (fallback: number) => envInt({ default: fallback, min: 10, max: 600_000 });

/** Days finished rows (jobs, deliveries, runs) are kept before the retention sweep deletes them; 0 keeps them. */
export const envRetentionDays = (fallback: number) => envInt({ default: fallback, min: 0, max: 3_650 });

export function envEnum<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.preprocess(
    (v) => (typeof blankToUndefined(v) === 'string' ? String(v).trim().toLowerCase() : undefined),
    z
      .enum(values, { message: `must be one of ${values.join(', ')}` })
      .optional()
      .transform((v) => v ?? fallback),
  );
}

export function envOptionalEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess(
    (v) => (typeof blankToUndefined(v) === 'string' ? String(v).trim().toLowerCase() : undefined),
    z.enum(values, { message: `must be one of ${values.join(', ')}` }).optional(),
  );
}

/**
 * Optional text: at least `min` characters, matching `pattern`, and accepted by `check` (for what a
 * pattern cannot say, e.g. a key that must decode to 32 bytes), as each is given. `hint` says what
 * to write: it is the whole message of a failed `pattern` or `check`, and follows the `min` one.
 */
export function envString(
  opts: { min?: number; pattern?: RegExp; check?: (value: string) => boolean; hint?: string } = {},
) {
  let schema = z.string();
  if (opts.min)
    schema = schema.min(opts.min, {
      message: `must be at least ${opts.min} characters${opts.hint ? ` (${opts.hint})` : ''}`,
    });
  if (opts.pattern) schema = schema.regex(opts.pattern, { message: opts.hint ?? `must match ${opts.pattern}` });
  if (opts.check) schema = schema.refine(opts.check, { message: opts.hint ?? 'is not valid' });
  return z.preprocess(blankToUndefined, schema.optional());
}

export function envBool(fallback: boolean) {
  return z.preprocess(
    (v) => (typeof blankToUndefined(v) === 'string' ? String(v).trim().toLowerCase() : undefined),
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { message: 'must be true or false' })
      .optional()
      .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v))),
  );
}

export function envUrl(opts: { protocols: string[]; hint?: string }) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine(
        (v) => {
          try {
            return opts.protocols.includes(new URL(v).protocol.replace(':', ''));
          } catch {
            return false;
          }
        },
        { message: opts.hint ?? `must be a URL starting with ${opts.protocols.map((p) => `${p}://`).join(' or ')}` },
      )
      .optional(),
  );
}

/** A comma-separated list, trimmed, empties removed. */
export function envList() {
  return z.preprocess(
    (v) => (typeof v === 'string' ? v : undefined),
    z
      .string()
      .optional()
      .transform((v) =>
        v === undefined
          ? undefined
          : v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
      ),
  );
}

/** For a setting read in seconds and used in milliseconds. */
export const secondsToMs = (seconds: number): number => seconds * 1000;

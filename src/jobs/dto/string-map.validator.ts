import { validatedBy } from '../../common/validation/validators.js';

/** Why a value is not a small flat map of strings to strings, or undefined when it is. */
export function stringMapProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of string values';
  const entries = Object.entries(value);
  if (entries.length > 100) return 'may hold 100 entries at most';
  const bad = entries.find(([k, v]) => typeof v !== 'string' || k.length === 0 || k.length > 100 || v.length > 1024);
  return bad
    ? `has '${bad[0].slice(0, 40)}': keys must be 1–100 characters and values strings of 1024 characters at most`
    : undefined;
}

export const IsStringMap = validatedBy('isStringMap', stringMapProblem);

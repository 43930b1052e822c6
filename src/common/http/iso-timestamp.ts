/**
 * A timestamp column as the API shows it: ISO 8601 in UTC, or null when unset. Rows may carry
 * the value as a Date or, from a raw query, as its text; both give the same string.
 */
export const isoOrNull = (d: Date | string | null): string | null => (d ? new Date(d).toISOString() : null);

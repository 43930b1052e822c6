/* Plain rule, no class-validator: segment compilation (worker side too) uses it. */

/** RFC 3339 date-time with an explicit offset, and a real calendar date (no 2026-02-30). */
export function isRfc3339(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = value.match(/^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 60) return false;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d >= 1 && d <= daysInMonth && !Number.isNaN(Date.parse(value));
}

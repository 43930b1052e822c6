import { succeeds } from '../../config/succeeds.js';

/**
 * Wall-clock arithmetic in IANA time zones with the platform's own tz database (Intl), so no
 * dependency and no bundled tz data to keep current: Node ships ICU and updates it.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for a zone name the tz database knows (e.g. Europe/Paris, UTC); false otherwise. */
export function isValidTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return false;
  return succeeds(() => formatter(value));
}

/** A calendar date (no time, no zone). */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/** What a clock in `timeZone` shows at `utcMs`. */
export function localParts(utcMs: number, timeZone: string): LocalDate & { minuteOfDay: number; second: number } {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(utcMs))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return { year: p.year, month: p.month, day: p.day, minuteOfDay: p.hour * 60 + p.minute, second: p.second };
}

/** The zone's offset from UTC at an instant, in ms (Paris in winter: +3 600 000). */
export function offsetMs(utcMs: number, timeZone: string): number {
  const l = localParts(utcMs, timeZone);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, 0, l.minuteOfDay, l.second);
  // Intl has second precision; compare against the instant truncated to the second.
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The instant a local wall-clock time happens in a zone. DST is resolved as RFC 5545 and
 * Temporal's "compatible" rule: a time repeated when clocks fall back means its first
 * occurrence; a time skipped when clocks spring forward is moved forward by the gap (02:30 on
 * a spring-forward day in New York is 03:30 EDT), so nothing scheduled in a gap is lost.
 */
export function zonedToUtc(date: LocalDate, minuteOfDay: number, timeZone: string): number {
  const local = Date.UTC(date.year, date.month - 1, date.day, 0, minuteOfDay);
  const DAY = 86_400_000;
  const before = offsetMs(local - DAY, timeZone);
  const candidates = [...new Set([before, offsetMs(local, timeZone), offsetMs(local + DAY, timeZone)])]
    .map((offset) => local - offset)
    .filter((utc) => local - offsetMs(utc, timeZone) === utc);
  if (candidates.length) return Math.min(...candidates);
  // In a gap: read the wall time with the offset in force before the jump.
  return local - before;
}

/** The date `days` after (or before) a date. */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** ISO weekday: Monday 1 … Sunday 7. */
export function isoWeekday(date: LocalDate): number {
  const js = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  return js === 0 ? 7 : js;
}

import { addDays, isoWeekday, isValidTimeZone, localParts, zonedToUtc } from './local-time.js';

/** Which jobs a window holds back: marketing (bulk priority or campaign tag) only, or all. */
export const WINDOW_APPLIES_TO = ['marketing', 'all'] as const;
export type WindowAppliesTo = (typeof WINDOW_APPLIES_TO)[number];

/**
 * When a project (or one request) allows sending, notifyd's shape: local times `start`–`end`
 * in the recipient's zone on ISO weekdays `days`. `end` before `start` is an overnight window
 * (22:00–06:00); it belongs to the day it opens on. Quiet hours 21:00–08:00 are the send
 * window 08:00–21:00.
 */
export interface SendWindow {
  /** "HH:MM", 24-hour. */
  start: string;
  end: string;
  /** Zone used when the recipient has none (IANA, default UTC). */
  tz: string;
  /** ISO weekdays the window opens on, 1 = Monday … 7 = Sunday; default every day. */
  days: number[];
  applies_to: WindowAppliesTo;
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];

export function minutesOf(hhmm: string): number {
  const m = HH_MM.exec(hhmm)!;
  return Number(m[1]) * 60 + Number(m[2]);
}

/**
 * Checks a window given by a caller (request or project settings) and fills its defaults.
 * Returns a message naming the field and the fix when it is wrong.
 */
export function parseSendWindow(raw: unknown, field = 'send_window'): { window: SendWindow } | { error: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      error: `${field} must be an object like {"start": "08:00", "end": "20:00", "tz": "Europe/Paris"}, or false to send at any time`,
    };
  }
  const w = raw as Record<string, unknown>;
  const known = new Set(['start', 'end', 'tz', 'days', 'applies_to']);
  const unknown = Object.keys(w).filter((k) => !known.has(k));
  if (unknown.length)
    return { error: `${field} has unknown field(s) ${unknown.join(', ')}; allowed: start, end, tz, days, applies_to` };
  for (const key of ['start', 'end'] as const) {
    if (typeof w[key] !== 'string' || !HH_MM.test(w[key]))
      return { error: `${field}.${key} must be a 24-hour time "HH:MM", e.g. "08:00"` };
  }
  if (w.start === w.end)
    return {
      error: `${field}.start and ${field}.end are equal; to allow sending all day, remove the window (or send send_window: false)`,
    };
  if (w.tz !== undefined && !isValidTimeZone(w.tz))
    return { error: `${field}.tz must be an IANA time zone such as "Europe/Paris" or "UTC"` };
  let days = ALL_DAYS;
  if (w.days !== undefined) {
    if (
      !Array.isArray(w.days) ||
      w.days.length === 0 ||
      !w.days.every((d) => Number.isInteger(d) && d >= 1 && d <= 7)
    ) {
      return {
        error: `${field}.days must be a non-empty list of ISO weekdays 1 (Monday) to 7 (Sunday), e.g. [1,2,3,4,5]`,
      };
    }
    days = [...new Set(w.days as number[])].sort();
  }
  if (w.applies_to !== undefined && !WINDOW_APPLIES_TO.includes(w.applies_to as WindowAppliesTo)) {
    return { error: `${field}.applies_to must be "marketing" (default) or "all"` };
  }
  return {
    window: {
      start: w.start as string,
      end: w.end as string,
      tz: (w.tz as string | undefined) ?? 'UTC',
      days,
      applies_to: (w.applies_to as WindowAppliesTo | undefined) ?? 'marketing',
    },
  };
}

/**
 * The first instant at or after `fromMs` inside the window, in `timeZone`: `fromMs` itself
 * when the window is open, else the next opening. Opening and closing times are resolved per
 * day, so a DST change moves them with the local clock (see zonedToUtc for skipped times).
 */
export function nextAllowed(fromMs: number, window: SendWindow, timeZone: string): number {
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  const overnight = end < start;
  const today = localParts(fromMs, timeZone);
  // From yesterday (an overnight window opened then may still be open) to 8 days ahead.
  for (let k = -1; k <= 8; k++) {
    const day = addDays(today, k);
    if (!window.days.includes(isoWeekday(day))) continue;
    const open = zonedToUtc(day, start, timeZone);
    const close = zonedToUtc(overnight ? addDays(day, 1) : day, end, timeZone);
    if (close > open && fromMs < close) return Math.max(fromMs, open);
  }
  // Unreachable with a validated window (at least one day a week); never hold a job forever.
  return fromMs;
}

/** A window already validated by the DTO, with its defaults filled in. */
export function normaliseSendWindow(raw: unknown): SendWindow {
  const parsed = parseSendWindow(raw);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.window;
}

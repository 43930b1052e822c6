import { zonedToUtc, offsetMs, isValidTimeZone } from './local-time.js';
import { nextAllowed, parseSendWindow, type SendWindow } from './send-window.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const window = (w: Partial<SendWindow> & Pick<SendWindow, 'start' | 'end'>): SendWindow => ({
  tz: 'UTC',
  days: [1, 2, 3, 4, 5, 6, 7],
  applies_to: 'marketing',
  ...w,
});

describe('local time', () => {
  it('knows zone names and rejects others', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone(42)).toBe(false);
  });

  it('reads offsets across DST', () => {
    expect(offsetMs(at('2026-01-15T12:00:00Z'), 'Europe/Paris')).toBe(3_600_000);
    expect(offsetMs(at('2026-07-15T12:00:00Z'), 'Europe/Paris')).toBe(7_200_000);
    expect(offsetMs(at('2026-07-15T12:00:00Z'), 'Asia/Kolkata')).toBe(19_800_000);
  });

  it('moves a wall time skipped by spring-forward forward by the gap', () => {
    // New York, 8 March 2026: 02:00 EST jumps to 03:00 EDT; 02:30 does not exist.
    expect(iso(zonedToUtc({ year: 2026, month: 3, day: 8 }, 150, 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    expect(iso(zonedToUtc({ year: 2026, month: 3, day: 8 }, 60, 'America/New_York'))).toBe('2026-03-08T06:00:00.000Z'); // 01:00 EST
    expect(iso(zonedToUtc({ year: 2026, month: 3, day: 8 }, 180, 'America/New_York'))).toBe('2026-03-08T07:00:00.000Z'); // 03:00 EDT
  });

  it('takes the first occurrence of a wall time repeated by fall-back', () => {
    // New York, 1 November 2026: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    expect(iso(zonedToUtc({ year: 2026, month: 11, day: 1 }, 90, 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
  });
});

describe('nextAllowed', () => {
  it('leaves an instant inside the window unchanged', () => {
    const from = at('2026-12-01T10:00:00Z');
    expect(nextAllowed(from, window({ start: '08:00', end: '20:00' }), 'UTC')).toBe(from);
  });

  it('before the opening: that day’s opening; after the close: the next day’s', () => {
    const w = window({ start: '08:00', end: '20:00' });
    expect(iso(nextAllowed(at('2026-12-01T06:00:00Z'), w, 'UTC'))).toBe('2026-12-01T08:00:00.000Z');
    expect(iso(nextAllowed(at('2026-12-01T20:00:00Z'), w, 'UTC'))).toBe('2026-12-02T08:00:00.000Z'); // end is exclusive
  });

  it('evaluates in the recipient’s zone', () => {
    const w = window({ start: '09:00', end: '18:00' });
    // 10:00Z is 19:00 in Tokyo (closed) and 05:00 in New York (not yet open).
    expect(iso(nextAllowed(at('2026-12-01T10:00:00Z'), w, 'Asia/Tokyo'))).toBe('2026-12-02T00:00:00.000Z');
    expect(iso(nextAllowed(at('2026-12-01T10:00:00Z'), w, 'America/New_York'))).toBe('2026-12-01T14:00:00.000Z');
  });

  it('skips days not listed (weekdays only: Saturday waits for Monday)', () => {
    const w = window({ start: '09:00', end: '17:00', days: [1, 2, 3, 4, 5], tz: 'Europe/Paris' });
    // Saturday 5 December 2026, 11:00 Paris.
    expect(iso(nextAllowed(at('2026-12-05T10:00:00Z'), w, 'Europe/Paris'))).toBe('2026-12-07T08:00:00.000Z');
  });

  it('overnight windows stay open past midnight and belong to the day they open on', () => {
    const w = window({ start: '22:00', end: '06:00', days: [5] }); // Friday night only
    // Saturday 5 December 2026 03:00 UTC: inside Friday's window.
    expect(nextAllowed(at('2026-12-05T03:00:00Z'), w, 'UTC')).toBe(at('2026-12-05T03:00:00Z'));
    // Saturday 07:00: closed until next Friday 22:00.
    expect(iso(nextAllowed(at('2026-12-05T07:00:00Z'), w, 'UTC'))).toBe('2026-12-11T22:00:00.000Z');
    // Friday 12:00: opens that evening.
    expect(iso(nextAllowed(at('2026-12-04T12:00:00Z'), w, 'UTC'))).toBe('2026-12-04T22:00:00.000Z');
  });

  it('a window opening at 02:30 (quiet hours ending 02:30) on a spring-forward day releases at 03:30 local', () => {
    const w = window({ start: '02:30', end: '22:00' });
    // 8 March 2026, 01:00 EST: released at 03:30 EDT = 07:30Z (one hour after 02:30 EST would be).
    expect(iso(nextAllowed(at('2026-03-08T06:00:00Z'), w, 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
    // The day after, 02:30 EDT exists again.
    expect(iso(nextAllowed(at('2026-03-09T05:00:00Z'), w, 'America/New_York'))).toBe('2026-03-09T06:30:00.000Z');
  });

  it('keeps local opening times across a DST change', () => {
    const w = window({ start: '09:00', end: '18:00' });
    // Paris switches to summer time on 29 March 2026: 09:00 is 08:00Z before, 07:00Z after.
    expect(iso(nextAllowed(at('2026-03-28T19:00:00Z'), w, 'Europe/Paris'))).toBe('2026-03-29T07:00:00.000Z');
    expect(iso(nextAllowed(at('2026-03-27T19:00:00Z'), w, 'Europe/Paris'))).toBe('2026-03-28T08:00:00.000Z');
  });

  it('an overnight window on the fall-back night lasts one hour longer in UTC', () => {
    const w = window({ start: '22:00', end: '06:00' });
    // Paris, night of 24–25 October 2026: 22:00 CEST = 20:00Z, 06:00 CET = 05:00Z.
    expect(nextAllowed(at('2026-10-25T04:59:00Z'), w, 'Europe/Paris')).toBe(at('2026-10-25T04:59:00Z'));
    expect(iso(nextAllowed(at('2026-10-25T05:00:00Z'), w, 'Europe/Paris'))).toBe('2026-10-25T21:00:00.000Z');
  });
});

describe('parseSendWindow', () => {
  it('fills defaults', () => {
    expect(parseSendWindow({ start: '08:00', end: '20:00' })).toEqual({
      window: { start: '08:00', end: '20:00', tz: 'UTC', days: [1, 2, 3, 4, 5, 6, 7], applies_to: 'marketing' },
    });
  });

  it.each([
    [{ start: '8:00', end: '20:00' }, /send_window.start must be a 24-hour time/],
    [{ start: '08:00', end: '24:00' }, /send_window.end must be a 24-hour time/],
    [{ start: '08:00', end: '08:00' }, /are equal/],
    [{ start: '08:00', end: '20:00', tz: 'Nowhere/City' }, /send_window.tz must be an IANA time zone/],
    [{ start: '08:00', end: '20:00', days: [0] }, /send_window.days must be a non-empty list of ISO weekdays/],
    [{ start: '08:00', end: '20:00', days: [] }, /send_window.days/],
    [{ start: '08:00', end: '20:00', applies_to: 'some' }, /applies_to must be "marketing"/],
    [{ start: '08:00', end: '20:00', quiet: true }, /unknown field\(s\) quiet/],
    ['08:00-20:00', /must be an object/],
  ])('rejects %j with a message naming the field', (raw, message) => {
    const result = parseSendWindow(raw);
    expect('error' in result && result.error).toMatch(message);
  });
});

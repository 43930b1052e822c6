import { decodeTimeIdCursor, encodeTimeIdCursor, isTimestampKey } from './cursor.js';

describe('time keyset cursors', () => {
  const id = '0197a000-0000-7000-8000-000000000001';

  it('round-trip the key the database wrote', () => {
    expect(decodeTimeIdCursor(encodeTimeIdCursor('2026-11-30 10:00:00.123456+00', id))).toEqual({
      createdAt: '2026-11-30 10:00:00.123456+00',
      id,
    });
    expect(decodeTimeIdCursor(undefined)).toBeUndefined();
  });

  it.each([
    '2026-11-30 10:00:00.123456+00',
    '2026-11-30 10:00:00+05:30',
    '2026-11-30T10:00:00.000Z',
    '2024-02-29 00:00:00-08',
    '0044-03-15 12:00:00+00:53:28',
  ])('accepts %s', (value) => expect(isTimestampKey(value)).toBe(true));

  it.each([
    '1',
    '2026',
    'Tue Jan 01 2030',
    '2026-02-29 00:00:00+00',
    '1900-02-29 00:00:00+00',
    '2026-13-01 00:00:00+00',
    '2026-11-30 24:00:00+00',
    '2026-11-30 10:00:00+16',
    '0000-01-01 00:00:00+00',
    '2026-11-30 10:00:00',
    '2026-11-30 10:00:00.1234567+00',
  ])('refuses %s', (value) => expect(isTimestampKey(value)).toBe(false));

  it('is a 400 naming cursor for a key PostgreSQL would not cast', () => {
    expect(() => decodeTimeIdCursor(encodeTimeIdCursor('1', id))).toThrow(/^cursor is not one this API returned/);
    expect(() => decodeTimeIdCursor(encodeTimeIdCursor('2026-11-30 10:00:00+00', '-'.repeat(36)))).toThrow(/^cursor /);
  });
});

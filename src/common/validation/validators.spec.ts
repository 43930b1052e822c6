import { isRfc3339 } from './rfc3339.js';
import { headerMapProblem, isSmsSender } from './validators.js';

describe('isRfc3339', () => {
  it.each(['2026-12-01T09:00:00Z', '2026-12-01T10:00:00+01:00', '2026-12-01T09:00:00.123456Z', '2028-02-29T00:00:00Z'])(
    '%s is valid',
    (v) => expect(isRfc3339(v)).toBe(true),
  );
  it.each([
    '2026-12-01',
    '2026-12-01T09:00:00',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-12-01T25:00:00Z',
    'tomorrow',
    1764460800,
  ])('%s is invalid', (v) => expect(isRfc3339(v)).toBe(false));
});

describe('headerMapProblem', () => {
  it('accepts plain custom headers', () =>
    expect(headerMapProblem({ 'X-Campaign': 'winter', 'List-Unsubscribe': '<https://a.example/u>' })).toBeUndefined());
  it('refuses a line break (header injection)', () =>
    expect(headerMapProblem({ 'X-A': 'ok\r\nBcc: victim@example.com' })).toMatch(/line breaks/));
  it('refuses headers that redirect or forge the message', () => {
    expect(headerMapProblem({ Bcc: 'x@example.com' })).toMatch(/may not set Bcc/);
    expect(headerMapProblem({ from: 'x@example.com' })).toMatch(/may not set from/);
  });
  it('refuses invalid names and non-text values', () => {
    expect(headerMapProblem({ 'Bad Name': 'x' })).toMatch(/invalid header name/);
    expect(headerMapProblem({ 'X-N': 1 })).toMatch(/must be text/);
    expect(headerMapProblem(['x'])).toMatch(/object/);
  });
});

describe('isSmsSender', () => {
  it.each(['+33612345678', 'Acme', 'Acme Shop', 'A1'])('%s is valid', (v) => expect(isSmsSender(v)).toBe(true));
  it.each(['0612345678', '+0123456789', '12345', 'TooLongSender1', 'Acme!', ''])('%s is invalid', (v) =>
    expect(isSmsSender(v)).toBe(false),
  );
});

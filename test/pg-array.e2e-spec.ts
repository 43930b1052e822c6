import { prepareParams, textArrayLiteral } from '../src/database/pg-array.js';
import { createEmptyDatabase, type TestDatabase } from './helpers/test-database.js';

/**
 * Db sends flat string arrays as literals built by JSON.stringify (src/database/pg-array.ts):
 * PostgreSQL must read back exactly the array node-postgres would have sent, whatever the
 * strings hold.
 */
describe('text array literals', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createEmptyDatabase();
  });
  afterAll(() => db.drop());

  const hostile = [
    'plain',
    '',
    'NULL',
    'null',
    'with space',
    ' lead and trail ',
    'comma,inside',
    '{braces}',
    'quote"inside',
    'back\\slash',
    'ends with backslash\\',
    '\\"',
    'new\nline',
    'tab\there',
    'bell\u0007',
    'héllo wörld ✓ 😀',
    'lone \ud800 surrogate',
    "single 'quote'",
  ];

  it('reads back every string and null as sent, through ANY and unnest alike', async () => {
    const values = [...hostile, null, ...hostile.map((s) => `${s}${s}`)];
    const [{ back }] = await db.sql('SELECT $1::text[] AS back', prepareParams([values]));
    // PostgreSQL text cannot hold a lone surrogate: node-postgres sends U+FFFD for it either way.
    expect(back).toEqual(values.map((v) => (v === null ? null : v.replace(/\ud800/g, '\ufffd'))));
    const [{ n }] = await db.sql(
      'SELECT count(*)::int AS n FROM unnest($1::text[]) v WHERE v = ANY($2::text[])',
      prepareParams([values, ['comma,inside', 'NULL']]),
    );
    expect(n).toBe(2);
  });

  it('reads back the fast path literal of awkward but escape-free strings exactly', async () => {
    const values = [
      'plain',
      '',
      'NULL',
      'null',
      ' lead and trail ',
      'comma,inside',
      '{braces}',
      'quote"inside',
      'ends with backslash\\',
      '\\"',
      'héllo ✓ 😀',
      "single 'quote'",
      null,
    ];
    expect(textArrayLiteral(values)).toBeDefined();
    const [{ back }] = await db.sql('SELECT $1::text[] AS back', prepareParams([values]));
    expect(back).toEqual(values);
  });

  it('takes the fast path for ordinary strings and leaves escapes, non-strings and nesting to node-postgres', () => {
    expect(textArrayLiteral(['a', null, 'b"c', 'd\\'])).toBe('{"a",null,"b\\"c","d\\\\"}');
    // A backslash before a letter looks like an escape to the quick check: the slow path, still correct.
    expect(textArrayLiteral(['d\\e'])).toBeUndefined();
    expect(textArrayLiteral([])).toBe('{}');
    expect(textArrayLiteral(['new\nline'])).toBeUndefined();
    expect(textArrayLiteral([1, 2])).toBeUndefined();
    expect(textArrayLiteral([['a']])).toBeUndefined();
    const dates = [new Date(0)];
    expect(prepareParams(['x', 3, dates, null])).toEqual(['x', 3, dates, null]);
  });

  it('sends timestamps and empty arrays the same way', async () => {
    const at = ['2026-11-30T09:00:00.000Z', null];
    const [{ back, empty }] = await db.sql(
      'SELECT $1::timestamptz[] AS back, cardinality($2::text[]) AS empty',
      prepareParams([at, []]),
    );
    expect(back.map((d: Date | null) => d?.toISOString() ?? null)).toEqual(at);
    expect(empty).toBe(0);
  });
});

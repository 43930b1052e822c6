import { compileSegment, SegmentError } from './segment-compiler.js';

const compile = (raw: unknown) => compileSegment(raw, 2);

describe('compileSegment', () => {
  it('the empty segment is everyone', () => {
    expect(compile({})).toEqual({ where: 'TRUE', params: [] });
  });

  it('binds every value and data path as a parameter, numbered after the project id', () => {
    const { where, params } = compile({
      locale: ['fr', 'es'],
      has_email: true,
      data: { plan: 'pro' },
      where: [{ field: 'data.address.city', op: 'contains', value: '50%_off' }],
    });
    expect(where).toBe(
      "locale = ANY($2::text[]) AND (NULLIF(email, '') IS NOT NULL) AND (data #>> $3::text[]) = $4 AND (data #>> $5::text[]) ILIKE $6 ESCAPE '\\'",
    );
    expect(params).toEqual([['fr', 'es'], ['plan'], 'pro', ['address', 'city'], '%50\\%\\_off%']);
  });

  it('compares numbers through a guarded cast and created_at as a time', () => {
    const { where, params } = compile({
      created_after: '2026-01-01T00:00:00Z',
      where: [{ field: 'data.orders', op: 'gte', value: 3 }],
    });
    expect(where).toContain('created_at > $2::timestamptz');
    expect(where).toContain(
      "(CASE WHEN (data #>> $3::text[]) ~ '^\\s*-?[0-9]+(\\.[0-9]+)?\\s*$' THEN ((data #>> $3::text[]))::numeric END) >= $4::numeric",
    );
    expect(params).toEqual(['2026-01-01T00:00:00Z', ['orders'], '3']);
  });

  it('neq and not_in include subscribers without the field', () => {
    expect(compile({ where: [{ field: 'locale', op: 'neq', value: 'fr' }] }).where).toBe('locale IS DISTINCT FROM $2');
    expect(compile({ where: [{ field: 'locale', op: 'not_in', value: ['fr'] }] }).where).toBe(
      '(locale IS NULL OR locale <> ALL($2::text[]))',
    );
  });

  it.each([
    [{ where: [{ field: 'email; DROP TABLE subscribers', op: 'eq', value: 'x' }] }, /is not a segment field/],
    [{ where: [{ field: "data.a') OR 1=1 --", op: 'eq', value: 'x' }] }, /each key of a data path/],
    [{ where: [{ field: 'email', op: 'eq OR 1=1', value: 'x' }] }, /op must be one of/],
    [{ data: { "plan' OR '1'='1": 'x' } }, /segment.data key/],
    [{ "locale = 'fr' OR 1=1 --": 'x' }, /unknown key/],
    [{ where: [{ field: 'email', op: 'eq', value: { $ne: null } }] }, /value must be a string, number or boolean/],
    [{ where: [{ field: 'data.orders', op: 'gt', value: '3; DROP TABLE jobs' }] }, /value must be a number/],
    [{ where: [{ field: 'created_at', op: 'gt', value: "now() - interval '1 day'" }] }, /RFC 3339/],
    [{ where: [{ field: 'created_at', op: 'contains', value: '2026' }] }, /does not apply to created_at/],
    [{ where: [{ field: 'email', op: 'eq', value: 'x', sql: 'TRUE' }] }, /unknown key\(s\) 'sql'/],
    [{ where: [{ field: 'email', op: 'in', value: [] }] }, /list of 1–1000/],
    [{ where: 'email = 1' }, /must be a list/],
    [[], /must be an object/],
    [{ segment: { data: { plan: 'pro' } } }, /keys go at the top level/],
  ])('refuses %j', (raw, message) => {
    expect(() => compile(raw)).toThrow(SegmentError);
    expect(() => compile(raw)).toThrow(message);
  });

  it('refuses too many conditions before compiling any of them (a 5 MB body of conditions is not worked through)', () => {
    const lists = Array.from({ length: 20_000 }, () => ({ field: 'id', op: 'in', value: ['a', 'b', 'c'] }));
    const where = [...lists, { field: 'nope', op: 'eq', value: 1 }];
    expect(() => compileSegment({ where }, 2)).toThrow('segment has 20001 conditions in where; at most 50');
    const data = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, i === 59 ? {} : 'v']));
    expect(() => compileSegment({ data }, 2)).toThrow('segment has 60 keys in data; at most 50');
  });
});

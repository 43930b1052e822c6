import { isRfc3339 } from '../../common/validation/rfc3339.js';

/**
 * notifyd's segment language compiled to a parameterised SQL condition on `subscribers`.
 *
 * Safety: the SQL text is assembled only from the fragments written in this file (column
 * names from a whitelist, operators from a fixed table); every value a caller sends, including
 * the keys of a `data.<path>`, is a bound parameter. Anything not in the grammar is refused with
 * a SegmentError naming the part and the fix, before any SQL runs.
 */
export class SegmentError extends Error {}

export interface CompiledSegment {
  /** A boolean SQL condition over `subscribers` using parameters $first… */
  where: string;
  params: unknown[];
}

type Scalar = string | number | boolean;
type Kind = 'text' | 'time';

const COLUMNS: Record<string, string> = {
  id: 'id',
  email: 'email',
  phone: 'phone',
  first_name: 'first_name',
  last_name: 'last_name',
  locale: 'locale',
  timezone: 'timezone',
  created_at: 'created_at',
};
const FIELD_HELP = `${Object.keys(COLUMNS).join(', ')} or data.<key>[.<key>…]`;
const DATA_KEY = /^[A-Za-z0-9_-]{1,64}$/;
const OPS = ['eq', 'neq', 'in', 'not_in', 'exists', 'contains', 'gt', 'gte', 'lt', 'lte'] as const;
type Op = (typeof OPS)[number];
const COMPARE: Record<'gt' | 'gte' | 'lt' | 'lte', string> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };
const SUGAR = ['locale', 'timezone', 'has_email', 'has_phone', 'created_after', 'created_before', 'data', 'where'];
const MAX_CONDITIONS = 50;
const MAX_LIST = 1_000;
const MAX_TEXT = 1_000;

/** A numeric reading of a text value, NULL when it is not a number (never a cast error). */
const numeric = (expr: string) => `(CASE WHEN ${expr} ~ '^\\s*-?[0-9]+(\\.[0-9]+)?\\s*$' THEN (${expr})::numeric END)`;

class Builder {
  readonly conditions: string[] = [];
  readonly params: unknown[] = [];
  constructor(private readonly first: number) {}

  bind(value: unknown, cast = ''): string {
    this.params.push(value);
    return `$${this.first + this.params.length - 1}${cast}`;
  }

  /** The SQL expression of a field, and whether it is text or a time. */
  field(name: unknown, where: string): { expr: string; kind: Kind } {
    if (typeof name !== 'string') throw new SegmentError(`${where}.field must be a string: ${FIELD_HELP}`);
    if (name in COLUMNS) return { expr: COLUMNS[name], kind: name === 'created_at' ? 'time' : 'text' };
    if (name.startsWith('data.')) {
      const path = name.slice(5).split('.');
      if (path.length > 8 || !path.every((k) => DATA_KEY.test(k))) {
        throw new SegmentError(
          `${where}.field: each key of a data path must be 1–64 letters, digits, _ or -, at most 8 keys (e.g. data.plan or data.address.city)`,
        );
      }
      return { expr: `(data #>> ${this.bind(path, '::text[]')})`, kind: 'text' };
    }
    throw new SegmentError(`${where}.field '${name.slice(0, 64)}' is not a segment field; use ${FIELD_HELP}`);
  }

  condition(field: unknown, op: unknown, value: unknown, where: string): void {
    if (typeof op !== 'string' || !OPS.includes(op as Op))
      throw new SegmentError(`${where}.op must be one of ${OPS.join(', ')}`);
    const { expr, kind } = this.field(field, where);
    const o = op as Op;
    if (kind === 'time') return this.timeCondition(expr, o, value, where);
    switch (o) {
      case 'eq':
        return void this.conditions.push(`${expr} = ${this.bind(scalar(value, where))}`);
      case 'neq':
        // NULL-inclusive, as notifyd: a subscriber without the field is "not equal".
        return void this.conditions.push(`${expr} IS DISTINCT FROM ${this.bind(scalar(value, where))}`);
      case 'in':
        return void this.conditions.push(`${expr} = ANY(${this.bind(list(value, where), '::text[]')})`);
      case 'not_in':
        return void this.conditions.push(
          `(${expr} IS NULL OR ${expr} <> ALL(${this.bind(list(value, where), '::text[]')}))`,
        );
      case 'exists':
        return void this.conditions.push(`(NULLIF(${expr}, '') IS ${bool(value, where) ? 'NOT NULL' : 'NULL'})`);
      case 'contains':
        return void this.conditions.push(
          `${expr} ILIKE ${this.bind(`%${escapeLike(text(value, where))}%`)} ESCAPE '\\'`,
        );
      default: {
        if (typeof value !== 'number' || !Number.isFinite(value))
          throw new SegmentError(`${where}.value must be a number for ${o}`);
        return void this.conditions.push(`${numeric(expr)} ${COMPARE[o]} ${this.bind(String(value), '::numeric')}`);
      }
    }
  }

  private timeCondition(expr: string, op: Op, value: unknown, where: string): void {
    const at = () => {
      if (!isRfc3339(value))
        throw new SegmentError(`${where}.value must be an RFC 3339 date-time, e.g. 2026-01-01T00:00:00Z`);
      return this.bind(value, '::timestamptz');
    };
    if (op === 'eq') return void this.conditions.push(`${expr} = ${at()}`);
    if (op === 'neq') return void this.conditions.push(`${expr} <> ${at()}`);
    if (op in COMPARE) return void this.conditions.push(`${expr} ${COMPARE[op as keyof typeof COMPARE]} ${at()}`);
    throw new SegmentError(`${where}.op ${op} does not apply to created_at; use eq, neq, gt, gte, lt or lte`);
  }
}

function scalar(value: unknown, where: string): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return text(String(value), where);
  throw new SegmentError(`${where}.value must be a string, number or boolean`);
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new SegmentError(`${where}.value must be a string`);
  if (value.length > MAX_TEXT) throw new SegmentError(`${where}.value is longer than ${MAX_TEXT} characters`);
  return value;
}

function list(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST)
    throw new SegmentError(`${where}.value must be a list of 1–${MAX_LIST} strings or numbers`);
  return value.map((v, i) => scalar(v as Scalar, `${where}.value[${i}]`));
}

function bool(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') throw new SegmentError(`${where}.value must be true or false`);
  return value;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Compiles a segment; the empty segment `{}` is every subscriber of the project. */
export function compileSegment(raw: unknown, firstParam: number): CompiledSegment {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new SegmentError('segment must be an object, e.g. {"locale": "fr", "has_email": true}');
  const seg = raw as Record<string, unknown>;
  const unknown = Object.keys(seg).filter((k) => !SUGAR.includes(k));
  if (unknown.includes('segment')) {
    throw new SegmentError(
      `segment has an unknown key 'segment': the segment's keys go at the top level (e.g. {"data": {"plan": "pro"}}), not wrapped in {"segment": …}`,
    );
  }
  if (unknown.length)
    throw new SegmentError(
      `segment has unknown key(s) ${unknown.map((k) => `'${k.slice(0, 64)}'`).join(', ')}; allowed: ${SUGAR.join(', ')}`,
    );
  const b = new Builder(firstParam);
  const oneOrMany = (field: string, value: unknown, where: string) =>
    Array.isArray(value) ? b.condition(field, 'in', value, where) : b.condition(field, 'eq', value, where);

  if (seg.locale !== undefined) oneOrMany('locale', seg.locale, 'segment.locale');
  if (seg.timezone !== undefined) oneOrMany('timezone', seg.timezone, 'segment.timezone');
  if (seg.has_email !== undefined) b.condition('email', 'exists', seg.has_email, 'segment.has_email');
  if (seg.has_phone !== undefined) b.condition('phone', 'exists', seg.has_phone, 'segment.has_phone');
  if (seg.created_after !== undefined) b.condition('created_at', 'gt', seg.created_after, 'segment.created_after');
  if (seg.created_before !== undefined) b.condition('created_at', 'lt', seg.created_before, 'segment.created_before');
  // Counted before any is compiled: a body of thousands of conditions is refused, not worked through.
  if (Array.isArray(seg.where) && seg.where.length > MAX_CONDITIONS)
    throw new SegmentError(`segment has ${seg.where.length} conditions in where; at most ${MAX_CONDITIONS}`);
  if (seg.data !== undefined) {
    if (typeof seg.data !== 'object' || seg.data === null || Array.isArray(seg.data))
      throw new SegmentError('segment.data must be an object of key: value or key: [values]');
    const keys = Object.keys(seg.data).length;
    if (keys > MAX_CONDITIONS) throw new SegmentError(`segment has ${keys} keys in data; at most ${MAX_CONDITIONS}`);
    for (const [key, value] of Object.entries(seg.data)) {
      if (!DATA_KEY.test(key))
        throw new SegmentError(`segment.data key '${key.slice(0, 64)}' must be 1–64 letters, digits, _ or -`);
      oneOrMany(`data.${key}`, value, `segment.data.${key}`);
    }
  }
  if (seg.where !== undefined) {
    if (!Array.isArray(seg.where)) throw new SegmentError('segment.where must be a list of {field, op, value}');
    seg.where.forEach((c: unknown, i) => {
      const where = `segment.where[${i}]`;
      if (typeof c !== 'object' || c === null || Array.isArray(c))
        throw new SegmentError(`${where} must be an object {field, op, value}`);
      const extra = Object.keys(c).filter((k) => !['field', 'op', 'value'].includes(k));
      if (extra.length)
        throw new SegmentError(
          `${where} has unknown key(s) ${extra.map((k) => `'${k.slice(0, 64)}'`).join(', ')}; allowed: field, op, value`,
        );
      const { field, op, value } = c as Record<string, unknown>;
      b.condition(field, op, value, where);
    });
  }
  if (b.conditions.length > MAX_CONDITIONS)
    throw new SegmentError(`segment has ${b.conditions.length} conditions; at most ${MAX_CONDITIONS}`);
  return { where: b.conditions.length ? b.conditions.join(' AND ') : 'TRUE', params: b.params };
}

/**
 * Bad values derived from a JSON Schema (an MCP tool's inputSchema, an OpenAPI parameter), for
 * the bad-input sweeps: a value of the wrong JSON type, a value past the declared bound, and a
 * plausible valid value to fill the other required fields with, so that each probe has one
 * fault only. Schemas are draft-7 as notifyd emits them (type, enum, anyOf, pattern, format,
 * maxLength, maxItems, maximum, items, properties, required).
 */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
}

/** Strings tried, in order, against a pattern until one matches (ids, durations, lanes…). */
const PATTERN_CANDIDATES = [
  'acme',
  'x',
  'email',
  'email:log',
  '0s',
  '10s',
  '1d',
  'resend',
  'user_1',
  'k1',
  '+15555550100',
  'a@example.com',
  '00000000-0000-4000-8000-000000000000',
  '2026-12-01T09:00:00Z',
  '1',
  'X',
];

const branches = (s: JsonSchema): JsonSchema[] => [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])];

/** The JSON types a schema admits; undefined when it admits anything (z.unknown()). */
export function typesOf(s: JsonSchema): Set<string> | undefined {
  const types = new Set<string>();
  if (s.type) for (const t of Array.isArray(s.type) ? s.type : [s.type]) types.add(t);
  if (s.enum) for (const v of s.enum) types.add(jsonType(v));
  if (s.const !== undefined) types.add(jsonType(s.const));
  for (const b of branches(s)) {
    const inner = typesOf(b);
    if (!inner) return undefined;
    for (const t of inner) types.add(t);
  }
  if (types.size === 0) return undefined;
  if (types.has('number')) types.add('integer');
  return types;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** A value whose JSON type the schema does not admit; undefined when it admits every type. */
export function wrongType(s: JsonSchema): unknown {
  const types = typesOf(s);
  if (!types) return undefined;
  const candidates: unknown[] = [12345, 'zz-wrong-type', true, ['zz'], { zz: 1 }, 1.5, null];
  return candidates.find((c) => !types.has(jsonType(c)) && !(jsonType(c) === 'integer' && types.has('number')));
}

/** A plausible valid value (first enum value, a string matching the pattern, the minimum…). */
export function validValue(s: JsonSchema): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const first = branches(s).find((b) => !(b.type === 'null'));
  if (first) return validValue(first);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return validString(s);
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => validValue(s.items ?? {}));
    case 'object':
      return validObject(s);
    default:
      return 'x';
  }
}

function validString(s: JsonSchema): string {
  if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (s.format === 'date-time') return new Date(Date.now() + 3_600_000).toISOString();
  if (s.format === 'email') return 'a@example.com';
  const fits = (v: string) =>
    (!s.pattern || new RegExp(s.pattern, 'u').test(v)) &&
    v.length >= (s.minLength ?? 0) &&
    v.length <= (s.maxLength ?? Infinity);
  return PATTERN_CANDIDATES.find(fits) ?? 'x'.repeat(Math.max(1, s.minLength ?? 1));
}

/** The required properties with valid values (and `extra` ones named by the caller). */
export function validObject(s: JsonSchema, extra: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of [...(s.required ?? []), ...extra.filter((e) => s.properties?.[e])])
    out[name] = validValue(s.properties?.[name] ?? {});
  return out;
}

/**
 * Values past the schema's bounds: a string one character over maxLength (or 200 000
 * characters when none is declared), an array one item over maxItems (or 20 000 items), a
 * number over its maximum (or 1e20), and for arrays and string maps a member that is too long.
 */
export function oversized(s: JsonSchema): { what: string; value: unknown }[] {
  const types = typesOf(s);
  if (!types) return [];
  const string = branchOf(s, 'string');
  const out: { what: string; value: unknown }[] = [];
  if (string && !string.enum && string.const === undefined)
    out.push({
      what: `string of ${(string.maxLength ?? 199_999) + 1}`,
      value: 'x'.repeat((string.maxLength ?? 199_999) + 1),
    });
  const number = branchOf(s, 'integer') ?? branchOf(s, 'number');
  if (number && !number.enum) {
    const max = number.maximum ?? (number.exclusiveMaximum !== undefined ? number.exclusiveMaximum - 1 : undefined);
    out.push({ what: `number over ${max ?? 'any bound'}`, value: max !== undefined ? max + 1 : 1e20 });
  }
  const array = branchOf(s, 'array');
  if (array) {
    const item = validValue(array.items ?? {});
    const count = (array.maxItems ?? 19_999) + 1;
    out.push({ what: `array of ${count}`, value: Array.from({ length: count }, () => item) });
    const itemString = array.items && branchOf(array.items, 'string');
    if (itemString && !itemString.enum)
      out.push({
        what: `array item of ${(itemString.maxLength ?? 199_999) + 1}`,
        value: ['x'.repeat((itemString.maxLength ?? 199_999) + 1)],
      });
  }
  const object = branchOf(s, 'object');
  const values =
    object && typeof object.additionalProperties === 'object'
      ? branchOf(object.additionalProperties, 'string')
      : undefined;
  if (values && values.maxLength !== undefined)
    out.push({ what: `map value of ${values.maxLength + 1}`, value: { zz: 'x'.repeat(values.maxLength + 1) } });
  return out;
}

/**
 * Values of the right type that PostgreSQL cannot store: a NUL character in a string, in an
 * array item, in a map's value and in a map's key (text and jsonb refuse U+0000).
 */
export function unstorable(s: JsonSchema): { what: string; value: unknown }[] {
  const out: { what: string; value: unknown }[] = [];
  const string = branchOf(s, 'string');
  if (string && !string.enum && string.const === undefined) out.push({ what: 'NUL in a string', value: 'a\u0000b' });
  const array = branchOf(s, 'array');
  const itemString = array?.items && branchOf(array.items, 'string');
  if (itemString && !itemString.enum) out.push({ what: 'NUL in an item', value: ['a\u0000b'] });
  const object = branchOf(s, 'object');
  if (object && !object.properties) {
    out.push({ what: 'NUL in a map value', value: { k: 'a\u0000b' } });
    out.push({ what: 'NUL in a map key', value: { 'a\u0000b': 'v' } });
  }
  return out;
}

/** The branch of a schema (itself or one of its anyOf) that is of this type. */
function branchOf(s: JsonSchema, type: string): JsonSchema | undefined {
  const own = Array.isArray(s.type) ? s.type.includes(type) : s.type === type;
  if (own) return s;
  for (const b of branches(s)) {
    const found = branchOf(b, type);
    if (found) return found;
  }
  return undefined;
}

/** Whether a message names the field (as a word: `id` is not found inside `project_id`). */
export function namesField(message: string, field: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_])${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`).test(message);
}

/**
 * The schema with every `$ref` to a component replaced by the component itself, at any depth
 * (properties, items, anyOf/oneOf/allOf), so that validValue builds nested objects (an array of
 * preference rows, not of 'x'). Stops at `depth` for self-referring schemas.
 */
export function inlineRefs(s: JsonSchema, components: Record<string, JsonSchema>, depth = 6): JsonSchema {
  const ref = (s as { $ref?: string }).$ref;
  const base = ref ? (components[ref.split('/').pop()!] ?? {}) : s;
  if (depth === 0) return base;
  const deeper = (x: JsonSchema) => inlineRefs(x, components, depth - 1);
  return {
    ...base,
    ...(base.items ? { items: deeper(base.items) } : {}),
    ...(base.properties
      ? { properties: Object.fromEntries(Object.entries(base.properties).map(([k, v]) => [k, deeper(v)])) }
      : {}),
    ...(base.anyOf ? { anyOf: base.anyOf.map(deeper) } : {}),
    ...(base.oneOf ? { oneOf: base.oneOf.map(deeper) } : {}),
    ...(base.allOf ? { allOf: base.allOf.map(deeper) } : {}),
  };
}

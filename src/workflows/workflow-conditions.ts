import type { Condition } from './workflow-steps.js';

/** What a condition can look at: the trigger payload, the subscriber, the run's digest and inbox facts. */
export interface ConditionScope {
  payload: Record<string, unknown>;
  subscriber: Record<string, unknown> | undefined;
  digest?: { item_count: number };
  inbox?: { is_read: boolean | null };
}

/** The value at a dotted field path, or undefined. */
export function resolveField(scope: ConditionScope, field: string): unknown {
  const [root, ...path] = field.split('.');
  let value: unknown =
    root === 'payload'
      ? scope.payload
      : root === 'subscriber'
        ? scope.subscriber
        : root === 'digest'
          ? scope.digest
          : root === 'inbox'
            ? scope.inbox
            : undefined;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key))
      return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const asNumber = (v: unknown) =>
  typeof v === 'number'
    ? v
    : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))
      ? Number(v)
      : undefined;

/**
 * Evaluates one condition. Comparisons are strict on type except numbers given as numeric
 * strings (payloads often carry "42"); a missing field is false for every operator but
 * `not_exists` and `neq`.
 */
export function evaluate(condition: Condition, scope: ConditionScope): boolean {
  const actual = resolveField(scope, condition.field);
  const expected = condition.value;
  switch (condition.operator) {
    case 'exists':
      return actual !== undefined && actual !== null;
    case 'not_exists':
      return actual === undefined || actual === null;
    case 'eq':
      return equal(actual, expected);
    case 'neq':
      return !equal(actual, expected);
    case 'in':
      return Array.isArray(expected) && expected.some((e) => equal(actual, e));
    case 'not_in':
      return Array.isArray(expected) && !expected.some((e) => equal(actual, e));
    case 'contains':
      if (typeof actual === 'string')
        return typeof expected === 'string' && actual.toLowerCase().includes(expected.toLowerCase());
      return Array.isArray(actual) && actual.some((a) => equal(a, expected));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const [a, b] = [asNumber(actual), asNumber(expected)];
      if (a === undefined || b === undefined) return false;
      return condition.operator === 'gt'
        ? a > b
        : condition.operator === 'gte'
          ? a >= b
          : condition.operator === 'lt'
            ? a < b
            : a <= b;
    }
  }
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const [x, y] = [asNumber(a), asNumber(b)];
  if (x !== undefined && y !== undefined && (typeof a === 'number' || typeof b === 'number')) return x === y;
  return typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b);
}

import { acceptedBy } from '../../common/validation/validators.js';

/**
 * True when no string inside `value` (keys included, at any depth) holds a NUL character.
 * PostgreSQL's text and jsonb cannot store one: let through, it fails the statement with a
 * 500, and in a bulk call the whole batch with it. Walks with a stack of its own, since `data`
 * may nest as deep as the body allows.
 */
export function hasNoNul(value: unknown): boolean {
  const stack = [value];
  while (stack.length) {
    const next = stack.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return false;
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, child] of Object.entries(next)) {
        if (key.includes('\u0000')) return false;
        stack.push(child);
      }
    }
  }
  return true;
}

export const HasNoNul = acceptedBy(
  'hasNoNul',
  hasNoNul,
  'must not contain a NUL character (\\u0000), which PostgreSQL cannot store; remove it',
);

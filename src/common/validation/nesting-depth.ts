/**
 * How deep a request value may nest (objects and arrays). class-transformer, which every DTO
 * goes through, recurses: past about 2 000 levels it overflows the stack (a 500), and so does
 * the structured clone that hands vars to a render thread. JSON.parse and jsonb take far more,
 * so the bound is checked first, with its own stack, naming the field. 100 is far beyond any
 * real vars, data or payload.
 */
export const MAX_NESTING_DEPTH = 100;

interface Node {
  value: unknown;
  depth: number;
  key: string;
  parent: Node | undefined;
}

/** Where `value` nests deeper than `max` levels (the first path segments of it), or undefined. */
export function tooDeepPath(value: unknown, max = MAX_NESTING_DEPTH): string | undefined {
  const stack: Node[] = [{ value, depth: 0, key: '', parent: undefined }];
  while (stack.length) {
    const node = stack.pop()!;
    const v = node.value;
    if (v === null || typeof v !== 'object') continue;
    if (node.depth >= max) return pathOf(node);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], depth: node.depth + 1, key: `[${i}]`, parent: node });
    } else {
      for (const [key, inner] of Object.entries(v))
        stack.push({ value: inner, depth: node.depth + 1, key, parent: node });
    }
  }
  return undefined;
}

/** The first three segments of a node's path (`vars.deep.a…`), enough to find it. */
function pathOf(node: Node): string {
  const keys: string[] = [];
  for (let n: Node | undefined = node; n?.parent; n = n.parent) keys.push(n.key);
  keys.reverse();
  const shown = keys
    .slice(0, 3)
    .reduce((path, key) => (key.startsWith('[') || !path ? path + key : `${path}.${key}`), '');
  return (shown || 'the value') + (keys.length > 3 ? '…' : '');
}

/** The sentence that names the field and the fix. */
export function tooDeepMessage(path: string, max = MAX_NESTING_DEPTH): string {
  return `${path} is nested more than ${max} levels deep; flatten it (objects and arrays at most ${max} levels)`;
}

/**
 * Where a request value holds a NUL character (U+0000), which PostgreSQL stores in neither
 * text nor jsonb: left in, it fails the statement that writes or compares it (a 500), so every
 * way in refuses it first, naming the field. Walks with its own stack: a deeply nested body
 * cannot overflow the call stack.
 */
export function nulCharacterPath(value: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path || 'the value';
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${path}[${i}]` });
      continue;
    }
    if (v !== null && typeof v === 'object') {
      for (const [key, inner] of Object.entries(v)) {
        if (key.includes('\u0000')) return path ? `${path} (one of its keys)` : 'a field name';
        stack.push({ value: inner, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return undefined;
}

/** The sentence that names the field and the fix. */
export function nulCharacterMessage(path: string): string {
  return `${path} contains a NUL character (U+0000), which cannot be stored; remove it.`;
}

/**
 * Array parameters as PostgreSQL array literals, built fast.
 *
 * node-postgres turns a JS array into a literal by string concatenation with two regex
 * replaces per element; for the 5 000-element arrays of a /v1/batch call or a segment page
 * that was the largest allocator of the API process (about 2 KB of garbage per recipient,
 * measured with V8's sampling heap profiler) and a visible share of its CPU. A flat array of
 * strings (and nulls) has the same literal as its JSON text with the brackets swapped, as long
 * as JSON used no escape other than \" and \\ (which mean the same inside a PostgreSQL array
 * element); JSON.stringify builds that in one native call.
 */

/** A JSON escape other than \" or \\ (a control character or lone surrogate): PostgreSQL would read it differently. */
const OTHER_ESCAPE = /\\[^"\\]/;

/** The literal of a flat array of strings/nulls, or undefined for anything else (left to node-postgres). */
export function textArrayLiteral(values: readonly unknown[]): string | undefined {
  for (const v of values) if (v !== null && v !== undefined && typeof v !== 'string') return undefined;
  const json = JSON.stringify(values);
  // False positives (a backslash followed by a letter) only fall back to the slow path.
  if (OTHER_ESCAPE.test(json)) return undefined;
  return `{${json.slice(1, -1)}}`;
}

/** A statement's parameters with flat string arrays pre-serialised; other values unchanged. */
export function prepareParams(params: readonly unknown[]): unknown[] {
  return params.map((p) => (Array.isArray(p) ? (textArrayLiteral(p) ?? p) : p));
}

/**
 * The trigger payload as template variables: top-level keys as they are, and nested values
 * under dotted keys as well (`{{order.id}}`), since `{{var}}` rendering looks keys up flat.
 */
export function flattenVars(
  payload: Record<string, unknown>,
  prefix = '',
  out: Record<string, unknown> = {},
  depth = 0,
): Record<string, unknown> {
  for (const [key, value] of Object.entries(payload)) {
    const name = prefix ? `${prefix}.${key}` : key;
    out[name] = value;
    if (value && typeof value === 'object' && !Array.isArray(value) && depth < 4)
      flattenVars(value as Record<string, unknown>, name, out, depth + 1);
  }
  return out;
}

/** Small display helpers shared by the pages. */
export function when(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? String(iso)
    : date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d{3}Z$/, ' UTC');
}

export function number(value) {
  return value === null || value === undefined
    ? '—'
    : typeof value === 'number'
      ? value.toLocaleString('en')
      : String(value);
}

/** The evidence of a finding as label/value pairs (objects shown as compact JSON). */
export function evidenceEntries(evidence) {
  return Object.entries(evidence ?? {}).map(([name, value]) => [
    name,
    value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value),
  ]);
}

/** notifyd's topic ids: 1–64 of `a-z 0-9 - _ . :`, compared lower-cased; `*` is reserved for "every scope". */
export const TOPIC_PATTERN = /^[a-z0-9_.:-]{1,64}$/;
export const TOPIC_HELP =
  'must be 1–64 characters of a-z, 0-9, -, _, . and : (e.g. "order-updates" or "billing:invoices")';

/** The stored form of a topic (trimmed, lower-cased), or undefined when it is not one. */
export function normaliseTopic(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const topic = value.trim().toLowerCase();
  return TOPIC_PATTERN.test(topic) ? topic : undefined;
}

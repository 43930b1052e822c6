/** notifyd's priority names; lower numbers are claimed first. */
export const PRIORITY_NAMES = { critical: 10, high: 30, normal: 50, low: 70, bulk: 80 } as const;
export type PriorityName = keyof typeof PRIORITY_NAMES;

/** A message at this priority or above is marketing: unsubscribe headers, marketing suppressions. */
export const MARKETING_PRIORITY = 80;

/** Tag values of `category` that make a send a campaign (default priority bulk, marketing). */
export const CAMPAIGN_CATEGORIES = new Set(['campaign', 'marketing', 'newsletter', 'bulk']);

export const PRIORITY_HELP =
  'must be critical, high, normal, low, bulk or a whole number from 0 to 100 (lower is sent first)';

/** A priority as the API accepts it (name, integer or numeric string), or undefined if invalid. */
export function parsePriority(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= 100 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (text in PRIORITY_NAMES) return PRIORITY_NAMES[text as PriorityName];
  if (/^\d{1,3}$/.test(text)) return parsePriority(Number(text));
  return undefined;
}

export function isCampaign(tags: readonly { name: string; value: string }[] | undefined): boolean {
  return !!tags?.some((t) => t.name === 'category' && CAMPAIGN_CATEGORIES.has(t.value.toLowerCase()));
}

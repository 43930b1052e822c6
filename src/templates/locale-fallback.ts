/**
 * The locales to try for a recipient, most specific first, ending with the default variant
 * (''): `es-MX` → `es-MX`, `es`, ''. `zh-Hant-TW` → `zh-Hant-TW`, `zh-Hant`, `zh`, ''.
 */
export function localeChain(locale: string | null | undefined): string[] {
  const chain: string[] = [];
  if (locale) {
    const parts = locale.split('-');
    for (let n = parts.length; n >= 1; n--) chain.push(parts.slice(0, n).join('-'));
  }
  chain.push('');
  return chain;
}

/** The variant to use among those stored (matched case-insensitively), or undefined. */
export function pickVariant<T extends { locale: string }>(
  variants: readonly T[],
  locale: string | null | undefined,
): T | undefined {
  for (const candidate of localeChain(locale)) {
    const found = variants.find((v) => v.locale.toLowerCase() === candidate.toLowerCase());
    if (found) return found;
  }
  return undefined;
}

import { localeChain, pickVariant } from './locale-fallback.js';

describe('locale fallback', () => {
  it('goes from the most specific tag to the language, then the default', () => {
    expect(localeChain('es-MX')).toEqual(['es-MX', 'es', '']);
    expect(localeChain('zh-Hant-TW')).toEqual(['zh-Hant-TW', 'zh-Hant', 'zh', '']);
    expect(localeChain(null)).toEqual(['']);
  });
  it('picks the first stored variant of the chain, case-insensitively', () => {
    const variants = [{ locale: '' }, { locale: 'es' }, { locale: 'es-MX' }];
    expect(pickVariant(variants, 'es-mx')).toBe(variants[2]);
    expect(pickVariant(variants, 'es-AR')).toBe(variants[1]);
    expect(pickVariant(variants, 'fr')).toBe(variants[0]);
    expect(pickVariant([{ locale: 'es' }], 'fr')).toBeUndefined();
  });
});

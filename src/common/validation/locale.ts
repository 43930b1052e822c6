import { buildMessage, ValidateBy, type ValidationOptions } from 'class-validator';

/** The canonical BCP 47 form of a language tag (`es-mx` → `es-MX`), or undefined when it is not one. */
export function canonicalLocale(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 35) return undefined;
  try {
    const [tag] = Intl.getCanonicalLocales(value);
    return tag;
  } catch {
    return undefined;
  }
}

/** A BCP 47 language tag, checked by the platform's own parser (Intl), e.g. en, fr-FR, es-419, zh-Hant-TW. */
export const IsBcp47 = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isBcp47',
      validator: {
        validate: (value) => canonicalLocale(value) !== undefined,
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a language tag (BCP 47) such as en, fr-FR, es-MX or zh-Hant-TW`,
          options,
        ),
      },
    },
    options,
  );

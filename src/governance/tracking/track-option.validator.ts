import { ValidateBy, type ValidationOptions } from 'class-validator';

/** `track`: a boolean, or an object with only boolean `opens` and `clicks`. */
export function isTrackOption(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([k, v]) => (k === 'opens' || k === 'clicks') && typeof v === 'boolean');
}

export const IsTrackOption = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isTrackOption',
      validator: {
        validate: isTrackOption,
        defaultMessage: () => 'track must be true, false or {"opens": true|false, "clicks": true|false}',
      },
    },
    options,
  );

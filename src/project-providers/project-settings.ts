import { ApiError } from '../common/errors/api-error.js';
import type { ProjectSettingsSpec } from '../connectors/connector.js';

/**
 * Checks a project's provider settings against the connector's spec: every field known, every
 * required one present, each matching its pattern. Messages name the field and the fix, and
 * never repeat a value (it may be a secret). Returns the plain and secret fields apart.
 */
export function splitSettings(
  spec: ProjectSettingsSpec,
  provider: string,
  input: Record<string, unknown>,
): { plain: Record<string, string>; secret: Record<string, string> } {
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  const known = Object.keys(spec.fields);
  for (const [name, value] of Object.entries(input)) {
    const field = spec.fields[name];
    if (!field)
      throw ApiError.unprocessable(
        'validation_failed',
        `settings.${name} is not a ${provider} setting; use ${known.join(', ')}.`,
      );
    if (typeof value !== 'string' || value.length === 0)
      throw ApiError.unprocessable('validation_failed', `settings.${name} must be a non-empty string.`);
    if (field.pattern && !field.pattern.test(value))
      throw ApiError.unprocessable(
        'validation_failed',
        `settings.${name} must be ${field.hint ?? `a value matching ${field.pattern}`}.`,
      );
    (field.secret ? secret : plain)[name] = value;
  }
  const missing = known.filter((name) => spec.fields[name].required && input[name] === undefined);
  if (missing.length)
    throw ApiError.unprocessable('validation_failed', `${provider} needs settings.${missing.join(', settings.')}.`);
  return { plain, secret };
}

/** A secret as an operator may see it: its last 4 characters when long enough to keep it secret, else nothing. */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `…${value.slice(-4)}` : '…';
}

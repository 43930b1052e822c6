import type { z } from 'zod';

/**
 * A config section: the environment variables it reads (a zod shape keyed by the variable's
 * own name, so a validation error names the variable) and how it turns them into a typed
 * object. Sections are merged into one schema in app-config.ts and parsed once at boot.
 */
export interface ConfigSection<S extends z.ZodRawShape, C> {
  env: S;
  build: (env: z.output<z.ZodObject<S>>) => C;
}

export function defineSection<S extends z.ZodRawShape, C>(
  env: S,
  build: (env: z.output<z.ZodObject<S>>) => C,
): ConfigSection<S, C> {
  return { env, build };
}

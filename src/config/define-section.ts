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

/** One setting: the environment variable it is read from, its schema, and how its value becomes the setting. */
export interface Setting<N extends string = string, S extends z.ZodType = z.ZodType, R = unknown> {
  name: N;
  schema: S;
  convert(value: z.output<S>): R;
}

/** The setting read from `name` with `schema`, as parsed. */
export function setting<N extends string, S extends z.ZodType>(name: N, schema: S): Setting<N, S, z.output<S>>;
/** The setting read from `name` with `schema`, turned into the setting by `convert` (e.g. seconds to ms). */
export function setting<N extends string, S extends z.ZodType, R>(
  name: N,
  schema: S,
  convert: (value: z.output<S>) => R,
): Setting<N, S, R>;
export function setting(name: string, schema: z.ZodType, convert = (value: unknown) => value): Setting {
  return { name, schema, convert };
}

type SettingsEnv<T extends Record<string, Setting>> = { [K in keyof T as T[K]['name']]: T[K]['schema'] };
type SettingsValues<T extends Record<string, Setting>> = { [K in keyof T]: ReturnType<T[K]['convert']> };

/**
 * A section where each setting is one variable: the table names the setting, its variable and
 * its bounds once, and the env shape and the build are read from it.
 */
export function defineSettings<T extends Record<string, Setting>>(
  settings: T,
): ConfigSection<SettingsEnv<T>, SettingsValues<T>> {
  const rows = Object.entries(settings);
  const env = Object.fromEntries(rows.map(([, s]) => [s.name, s.schema])) as SettingsEnv<T>;
  return defineSection(
    env,
    (values) =>
      Object.fromEntries(
        rows.map(([key, s]) => [key, s.convert((values as Record<string, unknown>)[s.name])]),
      ) as SettingsValues<T>,
  );
}

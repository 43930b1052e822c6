import type { DynamicModule, Provider, Type } from '@nestjs/common';

/**
 * A global module that provides, and exports, what main.ts opened before Nest started (the
 * validated configuration, the database): every module may inject them without importing it.
 */
export function globalModule(module: Type, providers: Provider[]): DynamicModule {
  const tokens = providers.map((provider) => ('provide' in provider ? provider.provide : provider));
  return { module, global: true, providers, exports: tokens };
}

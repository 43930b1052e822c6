import { type DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from './clock.js';
import type { AppConfig } from './app-config.js';

/** Injection token for the validated AppConfig. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/** The environment every module reads: the validated configuration and the clock. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }, Clock],
      exports: [APP_CONFIG, Clock],
    };
  }
}

import { type DynamicModule, Module } from '@nestjs/common';
import { Clock } from './clock.js';
import type { AppConfig } from './app-config.js';
import { globalModule } from './global-module.js';

/** Injection token for the validated AppConfig. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/** The environment every module reads: the validated configuration and the clock. */
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return globalModule(ConfigModule, [{ provide: APP_CONFIG, useValue: config }, Clock]);
  }
}

import type { DynamicModule, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppHttpModule } from './app-http.module.js';
import { fastifyOptions, setupApp } from './app.setup.js';
import type { AppConfig } from './config/app-config.js';
import { PinoLogger } from './logging/logger.js';

/**
 * The api and all roles' application: AppModule plus every controller and MCP, on Fastify, with
 * the OpenAPI document. main.ts imports this file only for those roles, so that a worker never
 * loads Fastify, the controllers, their DTOs or @nestjs/swagger.
 */
export async function createHttpApp(
  appModule: (extra: DynamicModule['imports']) => DynamicModule,
  config: AppConfig,
  logger: LoggerService | false,
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    appModule([AppHttpModule]),
    new FastifyAdapter(fastifyOptions(config, logger instanceof PinoLogger ? logger.pino : undefined)),
    { logger, abortOnError: false },
  );
  await setupApp(app, config);
  return app;
}

/** Listens on HOST:PORT; returns the bound port (PORT may be 0 in tests and benches). */
export async function listenHttpApp(app: NestFastifyApplication, config: AppConfig): Promise<number> {
  await app.listen({ port: config.server.port, host: config.server.host });
  const address = app.getHttpServer().address();
  return typeof address === 'object' && address ? address.port : config.server.port;
}

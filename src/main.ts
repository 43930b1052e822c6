import 'reflect-metadata';
import type { LoggerService, ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { fastifyOptions, setupApp } from './app.setup.js';
import { type AppConfig, loadConfig } from './config/app-config.js';
import { type Database, openDatabase } from './database/database.js';
import { runMigrations } from './database/migration-runner.js';
import { devBanner, loadOrCreateDevCredentials, type DevCredentials } from './dev-credentials.js';
import { loadExtensionModules } from './extensions/load-extension-modules.js';
import { createLogger, PinoLogger } from './logger.js';
import { ProjectsService } from './projects/projects.service.js';
import { SubscribersService } from './subscribers/subscribers.service.js';

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Listen on PORT (default). Tests pass false and talk to the server in-process or on port 0. */
  listen?: boolean;
  /** Extra Nest modules (custom connectors). */
  imports?: ModuleMetadata['imports'];
  logger?: LoggerService | false;
}

export interface Notifyd {
  app: NestFastifyApplication;
  config: AppConfig;
  database: Database;
  /** Base URL when listening. */
  url?: string;
  /** Graceful stop: worker drains (bounded), HTTP closes, pool closes, embedded cluster stops. */
  close(): Promise<void>;
}

/**
 * Boot order: config → database (embedded if DATABASE_URL is unset) → migrations under an
 * advisory lock → Nest app → listen. Every step fails with a message that names the fix.
 */
export async function startNotifyd(options: StartOptions = {}): Promise<Notifyd> {
  const env = options.env ?? process.env;
  let config = loadConfig(env);
  const logger = options.logger === undefined ? createLogger(config.server.logLevel) : options.logger;
  const log = logger || { log: () => undefined, warn: () => undefined, error: () => undefined };

  let credentials: DevCredentials | undefined;
  if (!config.database.url && !config.auth.adminApiKey) {
    credentials = await loadOrCreateDevCredentials(config.database.dataDir);
    config = loadConfig({ ...env, ADMIN_API_KEY: credentials.adminApiKey, JWT_SECRET: env.JWT_SECRET || credentials.jwtSecret });
  }

  // An enterprise team's own modules (NOTIFYD_MODULES), loaded before anything is opened.
  const extensions = await loadExtensionModules(config.extensions.modules);
  const database = await openDatabase(config.database, log);
  let app: NestFastifyApplication | undefined;
  try {
    if (config.database.migrateOnBoot) {
      const applied = await runMigrations(database.dataSource);
      if (applied.length) log.log(`applied migrations: ${applied.join(', ')}`, 'Database');
    }
    app = await NestFactory.create<NestFastifyApplication>(
      AppModule.forRoot({ config, database, imports: [...(options.imports ?? []), ...extensions] }),
      new FastifyAdapter(fastifyOptions(config, logger instanceof PinoLogger ? logger.pino : undefined)),
      { logger: logger === false ? false : logger, abortOnError: false },
    );
    await setupApp(app, config);
    await app.init();
    if (credentials) {
      await app.get(ProjectsService).ensureProject('default', 'Default project', credentials.defaultProjectKey);
      // The banner's curl sends an in-app message to "alice": she exists so that it is delivered.
      await app.get(SubscribersService).upsert('default', { id: 'alice', first_name: 'Alice' });
    }

    let url: string | undefined;
    if (options.listen !== false) {
      await app.listen({ port: config.server.port, host: config.server.host });
      const address = app.getHttpServer().address();
      const port = typeof address === 'object' && address ? address.port : config.server.port;
      const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
      url = `http://${host}:${port}`;
      log.log(`listening on ${url} (role ${config.server.role})`, 'notifyd');
      if (credentials) process.stdout.write(`${devBanner(url, database.embedded?.dataDir ?? config.database.dataDir, credentials)}\n`);
    }

    let closing: Promise<void> | undefined;
    const started = app;
    return {
      app: started,
      config,
      database,
      url,
      close: () => (closing ??= started.close().finally(() => database.close())),
    };
  } catch (err) {
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw err;
  }
}

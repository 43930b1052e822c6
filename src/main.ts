import 'reflect-metadata';
import type { INestApplicationContext, LoggerService, ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { type AppConfig, loadConfig } from './config/app-config.js';
import { type Database, openDatabase } from './database/database.js';
import { runMigrations } from './database/migration-runner.js';
import { devProfileBanner } from './config/dev-profile.js';
import { devBanner, loadOrCreateDevCredentials, type DevCredentials } from './dev-credentials.js';
import { loadExtensionModules } from './extensions/load-extension-modules.js';
import { HealthService } from './health/health.service.js';
import { WorkerHealthServer } from './health/worker-health.server.js';
import { createLogger } from './logging/logger.js';
import { MetricsService } from './observability/metrics/metrics.service.js';
import { PeriodicTasks } from './periodic/periodic-tasks.service.js';
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
  /** The Nest application: a Fastify app for the api and all roles, an application context for a worker. */
  app: INestApplicationContext;
  config: AppConfig;
  database: Database;
  /** Base URL when listening. */
  url?: string;
  /** Graceful stop: worker drains (bounded), HTTP closes, pool closes, embedded cluster stops. */
  close(): Promise<void>;
}

/** The URL a local client uses: a wildcard bind address is reached on loopback. */
function baseUrl(config: AppConfig, port: number): string {
  const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
  return `http://${host}:${port}`;
}

/**
 * Boot order: config → database (embedded if DATABASE_URL is unset) → migrations under an
 * advisory lock → Nest app → listen. Every step fails with a message that names the fix.
 *
 * NOTIFYD_ROLE=worker boots AppModule as an application context, without Fastify, controllers,
 * DTOs, @nestjs/swagger or MCP (http-app.ts is never imported), and answers its health probes
 * and Prometheus scrapes with a node:http server: the worker's resident memory is what issue 9 measures.
 */
export async function startNotifyd(options: StartOptions = {}): Promise<Notifyd> {
  const env = options.env ?? process.env;
  let config = loadConfig(env);
  const logger =
    options.logger === undefined ? createLogger(config.server.logLevel, config.server.logFlushMs) : options.logger;
  const log = logger || { log: () => undefined, warn: () => undefined, error: () => undefined };

  let credentials: DevCredentials | undefined;
  if (!config.database.url && !config.auth.adminApiKey) {
    credentials = await loadOrCreateDevCredentials(config.database.dataDir);
    config = loadConfig({
      ...env,
      ADMIN_API_KEY: credentials.adminApiKey,
      JWT_SECRET: env.JWT_SECRET || credentials.jwtSecret,
    });
  }

  // An enterprise team's own modules (NOTIFYD_MODULES), loaded before anything is opened.
  const extensions = await loadExtensionModules(config.extensions.modules);
  const database = await openDatabase(config.database, log);
  const appModule = (extra: ModuleMetadata['imports'] = []) =>
    AppModule.forRoot({ config, database, imports: [...extra, ...(options.imports ?? []), ...extensions] });
  let app: INestApplicationContext | undefined;
  let healthServer: WorkerHealthServer | undefined;
  try {
    if (config.database.migrateOnBoot) {
      const applied = await runMigrations(database.dataSource);
      if (applied.length) log.log(`applied migrations: ${applied.join(', ')}`, 'Database');
    }
    const nestLogger = logger === false ? false : logger;
    let listen: () => Promise<number>;
    if (config.server.role === 'worker') {
      // createApplicationContext runs the lifecycle hooks (the worker starts in them) like app.init().
      const context = await NestFactory.createApplicationContext(appModule(), {
        logger: nestLogger,
        abortOnError: false,
      });
      app = context;
      listen = () =>
        (healthServer = new WorkerHealthServer(
          context.get(HealthService),
          context.get(MetricsService),
          config,
          context.get(ProjectsService),
        )).listen(config.server.port, config.server.host);
    } else {
      const { createHttpApp, listenHttpApp } = await import('./http-app.js');
      const http = await createHttpApp(appModule, config, nestLogger);
      app = http;
      await http.init();
      listen = () => listenHttpApp(http, config);
    }
    if (credentials) {
      await app.get(ProjectsService).ensureProject('default', 'Default project', credentials.defaultProjectKey);
      // The banner's curl sends an in-app message to "alice": she exists so that it is delivered.
      await app.get(SubscribersService).upsert('default', { id: 'alice', first_name: 'Alice' });
    }

    let url: string | undefined;
    if (options.listen !== false) {
      url = baseUrl(config, await listen());
      log.log(`listening on ${url} (role ${config.server.role})`, 'notifyd');
      if (credentials)
        process.stdout.write(
          `${devBanner(url, database.embedded?.dataDir ?? config.database.dataDir, credentials, { tty: process.stdout.isTTY === true })}\n`,
        );
      const profile = devProfileBanner(env, {
        host: config.server.host,
        corsOrigins: config.server.corsOrigins,
        allowLoopback: config.outbound.allowLoopback,
      });
      if (profile) process.stdout.write(`${profile}\n`);
    }

    let closing: Promise<void> | undefined;
    const started = app;
    // The worker drains inside app.close(); its health server answers until that is done.
    const close = async () => {
      try {
        // First, so that no periodic tick starts while the modules shut down (PeriodicTasks is
        // global: Nest runs its hooks last). Ticks already running are awaited inside close().
        started.get(PeriodicTasks).halt();
        await started.close();
      } finally {
        await healthServer?.close();
        await database.close();
      }
    };
    return { app: started, config, database, url, close: () => (closing ??= close()) };
  } catch (err) {
    await app?.close().catch(() => undefined);
    await healthServer?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw err;
  }
}

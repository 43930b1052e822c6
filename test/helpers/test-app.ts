import type { LoggerService, ModuleMetadata } from '@nestjs/common';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent.js';
import { startNotifyd, type Notifyd } from '../../src/main.js';
import { WorkerService } from '../../src/jobs/worker/worker.service.js';
import { MaintenanceService } from '../../src/jobs/worker/maintenance.service.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export const ADMIN_KEY = 'test-admin-key-0123456789abcdef';
export const READONLY_KEY = 'test-readonly-key-0123456789abcd';

export interface TestAppOptions {
  /** Environment on top of the test defaults (role api, log connectors, quiet logs). */
  env?: Record<string, string>;
  imports?: ModuleMetadata['imports'];
  /** Reuse a database (several apps as replicas of one instance). */
  database?: TestDatabase;
  /** The app's logger (a spec that reads the log lines passes one writing to a stream it holds). */
  logger?: LoggerService;
}

export interface TestApp {
  notifyd: Notifyd;
  db: TestDatabase;
  http: ReturnType<typeof request>;
  url: string;
  worker: WorkerService;
  maintenance: MaintenanceService;
  /** Creates a project through the admin API; returns its id and key. */
  createProject(id?: string): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

/**
 * Tests run unpaced unless they set a rate: a paced lane (notifyd's defaults, e.g. SMS 10/s)
 * would make every test that drains a few hundred jobs wait on the bucket.
 */
export const UNPACED: Record<string, string> = {
  EMAIL_RATE_PER_SEC: '0',
  SMS_RATE_PER_SEC: '0',
  WHATSAPP_RATE_PER_SEC: '0',
  PUSH_RATE_PER_SEC: '0',
  TELEGRAM_RATE_PER_SEC: '0',
  SLACK_RATE_PER_SEC: '0',
  DISCORD_RATE_PER_SEC: '0',
};

let projectCounter = 0;

/**
 * Boots the real application (config, database, migrations, Nest, Fastify) on a database of
 * its own and listens on a free loopback port. Defaults: NOTIFYD_ROLE=api, so the worker is
 * driven by hand with `worker.drainOnce()`; set NOTIFYD_ROLE=all to run the loop.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.database ?? (await createTestDatabase());
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: db.url,
    ADMIN_API_KEY: ADMIN_KEY,
    READONLY_API_KEY: READONLY_KEY,
    JWT_SECRET: 'test-jwt-secret-0123456789abcdef',
    NOTIFYD_ROLE: 'api',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    EMAIL_PROVIDER: 'log',
    SMS_PROVIDER: 'log',
    DATABASE_MAX_CONNECTIONS: '6',
    ...UNPACED,
    ...options.env,
  };
  const notifyd = await startNotifyd({
    env,
    imports: options.imports,
    logger: options.logger ?? (env.LOG_LEVEL === 'silent' ? false : undefined),
  });
  const url = notifyd.url!;
  const http = request(url);
  return {
    notifyd,
    db,
    http,
    url,
    worker: notifyd.app.get(WorkerService),
    maintenance: notifyd.app.get(MaintenanceService),
    async createProject(id = `p${process.pid}x${++projectCounter}`) {
      const res = await http
        .post('/v1/admin/projects')
        .set('X-Api-Key', ADMIN_KEY)
        .send({ id, name: `Project ${id}` });
      if (res.status !== 201) throw new Error(`createProject: ${res.status} ${JSON.stringify(res.body)}`);
      return { id, key: res.body.project.api_key as string };
    },
    async close() {
      await notifyd.close();
      if (!options.database) await db.drop();
    },
  };
}

export type { TestAgent };

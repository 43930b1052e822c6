import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';

export const MIGRATIONS_TABLE = 'notifyd_migrations';

export interface DataSourceOptions {
  url: string;
  maxConnections: number;
  statementTimeoutMs: number;
  applicationName?: string;
  onPoolError?: (err: Error) => void;
}

/**
 * The one DataSource of a process. No entities: notifyd's SQL is written by hand and kept in
 * each module's sql/ or repository file; TypeORM provides the pool, query runners,
 * transactions and the migration runner.
 */
export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    applicationName: options.applicationName ?? 'notifyd',
    migrations: MIGRATIONS,
    migrationsTableName: MIGRATIONS_TABLE,
    migrationsRun: false,
    logging: false,
    poolErrorHandler: options.onPoolError ?? (() => undefined),
    extra: {
      max: options.maxConnections,
      // A statement that runs longer than this is cancelled rather than pinning a connection.
      statement_timeout: options.statementTimeoutMs || undefined,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
    },
  });
}

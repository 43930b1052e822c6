import type { LoggerService } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../config/sections/database.config.js';
import { createDataSource } from './data-source.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.js';

/** The process's database: the DataSource and, in embedded mode, the cluster behind it. */
export interface Database {
  dataSource: DataSource;
  url: string;
  embedded?: EmbeddedDatabase;
  /** Close the pool, then stop the embedded cluster if there is one. Safe to call twice. */
  close(): Promise<void>;
}

export const DATABASE = Symbol('DATABASE');

export async function openDatabase(config: DatabaseConfig, logger: LoggerService): Promise<Database> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.url;
  if (!url) {
    logger.log(
      `DATABASE_URL is not set: starting the embedded PostgreSQL 18 with its data in ${config.dataDir}`,
      'Database',
    );
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, persistent: true });
    url = embedded.url;
  }
  const dataSource = createDataSource({
    url,
    maxConnections: config.maxConnections,
    statementTimeoutMs: config.statementTimeoutMs,
    onPoolError: (err) => logger.warn(`idle database connection failed: ${err.message}`, 'Database'),
  });
  try {
    await dataSource.initialize();
  } catch (err) {
    await embedded?.stop();
    throw new Error(`Cannot connect to PostgreSQL at ${redactUrl(url)}: ${(err as Error).message}`);
  }
  let closed = false;
  return {
    dataSource,
    url,
    embedded,
    async close() {
      if (closed) return;
      closed = true;
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.stop();
    },
  };
}

/** A database URL safe to print: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<invalid url>';
  }
}

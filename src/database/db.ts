import { Inject, Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { DataSource, QueryFailedError, type QueryRunner } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { prepareParams } from './pg-array.js';
import type { PreparedSql } from './prepared-sql.js';

/** A statement: SQL text, or a PreparedSql the worker keeps prepared per connection. */
export type Sql = string | PreparedSql;

/**
 * Raw SQL through TypeORM's query runners, with one result shape. (`DataSource.query` returns
 * rows for SELECT/INSERT but `[rows, count]` for UPDATE/DELETE; these helpers always give rows.)
 * Pass a runner to stay inside a transaction.
 *
 * A PreparedSql runs as a named statement on the runner's node-postgres connection (TypeORM's
 * query() cannot name one), so PostgreSQL plans it once per connection; with
 * DATABASE_PREPARED_STATEMENTS=false (a pooler that cannot keep prepared statements) it runs as
 * plain text like any other statement. Errors are QueryFailedErrors either way.
 */
@Injectable()
export class Db {
  private readonly prepare: boolean;

  constructor(
    readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prepare = config.database.preparedStatements;
  }

  async rows<T>(sql: Sql, params: unknown[] = [], runner?: QueryRunner): Promise<T[]> {
    const result = await this.run(sql, params, runner);
    return (result.records ?? []) as T[];
  }

  async one<T>(sql: Sql, params: unknown[] = [], runner?: QueryRunner): Promise<T | undefined> {
    return (await this.rows<T>(sql, params, runner))[0];
  }

  /** Runs a statement and returns the number of rows it touched. */
  async exec(sql: Sql, params: unknown[] = [], runner?: QueryRunner): Promise<number> {
    const result = await this.run(sql, params, runner);
    return result.affected ?? 0;
  }

  /** Runs fn in a transaction on one connection; commits on success, rolls back on throw. */
  async transaction<T>(fn: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const value = await fn(runner);
      await runner.commitTransaction();
      return value;
    } catch (err) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }

  private async run(sql: Sql, params: unknown[], runner?: QueryRunner): Promise<{ records?: unknown[]; affected?: number }> {
    const own = runner ?? this.dataSource.createQueryRunner();
    const values = prepareParams(params);
    try {
      if (typeof sql === 'string') return (await own.query(sql, values, true)) as { records?: unknown[]; affected?: number };
      if (!this.prepare) return (await own.query(sql.text, values, true)) as { records?: unknown[]; affected?: number };
      const client = (await own.connect()) as PoolClient;
      try {
        const result = await client.query({ name: sql.name, text: sql.text, values });
        return { records: result.rows, affected: result.rowCount ?? 0 };
      } catch (err) {
        throw new QueryFailedError(sql.text, values, err as Error);
      }
    } finally {
      if (!runner) await own.release();
    }
  }
}

/** The SQLSTATE of a failed query, e.g. '23505' for a unique violation. */
export function sqlState(err: unknown): string | undefined {
  if (err instanceof QueryFailedError) return (err.driverError as { code?: string })?.code;
  return (err as { code?: string })?.code;
}

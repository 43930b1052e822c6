import { Inject, Injectable, Logger } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { DataSource, QueryFailedError, QueryRunnerAlreadyReleasedError, type QueryRunner } from 'typeorm';
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
 * query() cannot name one), so PostgreSQL parses it once per connection; with
 * DATABASE_PREPARED_STATEMENTS=false (a pooler that cannot keep prepared statements) it runs as
 * plain text like any other statement. Errors are QueryFailedErrors either way.
 *
 * If the server says a statement this connection prepared is gone or unusable (a pooler that
 * moved us to another server connection, a DISCARD, a schema change under a cached plan), the
 * process stops preparing statements and logs once why; the statement, which never started, runs
 * again as text unless it was inside a transaction (aborted by the error: the caller's retry
 * runs as text).
 */
@Injectable()
export class Db {
  private readonly logger = new Logger('Database');
  private prepare: boolean;

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

  private async run(sql: Sql, params: unknown[], runner?: QueryRunner): Promise<QueryResult> {
    const own = runner ?? this.dataSource.createQueryRunner();
    const values = prepareParams(params);
    try {
      if (typeof sql !== 'string' && this.prepare) {
        try {
          return await this.runPrepared(own, sql, values);
        } catch (err) {
          if (!STALE_STATEMENT.has(sqlState(err) ?? '')) throw err;
          this.stopPreparing(err as Error);
          if (own.isTransactionActive) throw err;
        }
      }
      return (await own.query(typeof sql === 'string' ? sql : sql.text, values, true)) as QueryResult;
    } finally {
      if (!runner) await own.release();
    }
  }

  private async runPrepared(runner: QueryRunner, sql: PreparedSql, values: unknown[]): Promise<QueryResult> {
    // TypeORM's query() checks this itself; connect() on a released runner would hand back a client someone else may hold.
    if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
    const client = (await runner.connect()) as PoolClient;
    try {
      const result = await client.query({ name: sql.name, text: sql.text, values });
      return { records: result.rows, affected: result.rowCount ?? 0 };
    } catch (err) {
      // The connection believes the statement is prepared and would never send it again
      // (node-postgres 8 keeps that in connection.parsedStatements): forget it here.
      if (STALE_STATEMENT.has(sqlState(err) ?? ''))
        delete (client as unknown as PgClientInternals).connection.parsedStatements[sql.name];
      throw new QueryFailedError(sql.text, values, err as Error);
    }
  }

  private stopPreparing(err: Error): void {
    if (!this.prepare) return;
    this.prepare = false;
    this.logger.warn(
      `a prepared statement was refused (${err.message}); running every statement unprepared from now on. Behind a pooler that cannot keep prepared statements, set DATABASE_PREPARED_STATEMENTS=false.`,
    );
  }
}

type QueryResult = { records?: unknown[]; affected?: number };

/** What node-postgres keeps per connection about the statements it has prepared there. */
interface PgClientInternals {
  connection: { parsedStatements: Record<string, string> };
}

/**
 * The server no longer has, or cannot use, a statement the connection prepared: 26000 (no such
 * prepared statement), 42P05 (the name exists already: another client's, through a pooler),
 * 0A000 (cached plan must not change result type, after a schema change). All three are raised
 * before the statement runs, so running it again is safe.
 */
const STALE_STATEMENT = new Set(['26000', '42P05', '0A000']);

/** The SQLSTATE of a failed query, e.g. '23505' for a unique violation. */
export function sqlState(err: unknown): string | undefined {
  if (err instanceof QueryFailedError) return (err.driverError as { code?: string })?.code;
  return (err as { code?: string })?.code;
}

import { Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError, type QueryRunner } from 'typeorm';
import { prepareParams } from './pg-array.js';

/**
 * Raw SQL through TypeORM's query runners, with one result shape. (`DataSource.query` returns
 * rows for SELECT/INSERT but `[rows, count]` for UPDATE/DELETE; these helpers always give rows.)
 * Pass a runner to stay inside a transaction.
 */
@Injectable()
export class Db {
  constructor(readonly dataSource: DataSource) {}

  async rows<T>(sql: string, params: unknown[] = [], runner?: QueryRunner): Promise<T[]> {
    const result = await this.run(sql, params, runner);
    return (result.records ?? []) as T[];
  }

  async one<T>(sql: string, params: unknown[] = [], runner?: QueryRunner): Promise<T | undefined> {
    return (await this.rows<T>(sql, params, runner))[0];
  }

  /** Runs a statement and returns the number of rows it touched. */
  async exec(sql: string, params: unknown[] = [], runner?: QueryRunner): Promise<number> {
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

  private async run(sql: string, params: unknown[], runner?: QueryRunner) {
    const own = runner ?? this.dataSource.createQueryRunner();
    try {
      return (await own.query(sql, prepareParams(params), true)) as { records?: unknown[]; affected?: number };
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

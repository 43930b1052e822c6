/** What the import needs of a connection: a query that returns rows (pg.Client and TypeORM's QueryRunner both fit behind it). */
export interface SqlRunner {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

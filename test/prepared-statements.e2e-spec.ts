import { QueryFailedError } from 'typeorm';
import { Db, sqlState } from '../src/database/db.js';
import { preparedSql } from '../src/database/prepared-sql.js';
import { CLAIM_JOBS } from '../src/jobs/sql/claim.sql.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The worker's batch statements are PreparedSql: by default a named statement on the
 * connection (planned once per connection), and plain text with DATABASE_PREPARED_STATEMENTS=
 * false for a pooler that cannot keep prepared statements. Same rows, same counts, same errors.
 */
describe('prepared statements (DATABASE_PREPARED_STATEMENTS)', () => {
  let on: TestApp;
  let off: TestApp;
  /** An app whose connection loses its prepared statements (it stops preparing). */
  let refused: TestApp;
  beforeAll(async () => {
    on = await startTestApp();
    off = await startTestApp({ database: on.db, env: { DATABASE_PREPARED_STATEMENTS: 'false' } });
    refused = await startTestApp({ database: on.db });
  });
  afterAll(async () => {
    await refused.close();
    await off.close();
    await on.close();
  });

  const COUNT = preparedSql('notifyd_test_count', `SELECT count(*)::int AS n FROM generate_series(1, $1::int)`);
  const TOUCH = preparedSql('notifyd_test_touch', `UPDATE projects SET name = name WHERE id = ANY($1::text[])`);
  const FAIL = preparedSql('notifyd_test_fail', `SELECT 1 / $1::int AS x`);
  /** The prepared statements of the connection a transaction runs on (they are per session). */
  const preparedOn = (db: Db) =>
    db.transaction(async (runner) => {
      await db.one(COUNT, [3], runner);
      await db.one(COUNT, [4], runner);
      return (await db.rows<{ name: string }>(`SELECT name FROM pg_prepared_statements`, [], runner)).map(
        (r) => r.name,
      );
    });

  it('by default runs a PreparedSql as a named statement on the connection', async () => {
    expect(await preparedOn(on.notifyd.app.get(Db))).toContainEqual(COUNT.name);
    // The name carries a hash of the text: two versions never share a name for different SQL.
    expect(COUNT.name).toMatch(/^notifyd_test_count_[0-9a-f]{8}$/);
    expect(() => preparedSql('notifyd_test_count', 'SELECT 2')).toThrow(/already used for another statement/);
  });

  it('the claim settles on a generic plan: after a few runs on a connection it is no longer planned', async () => {
    const db = on.notifyd.app.get(Db);
    const plans = await db.transaction(async (runner) => {
      for (let i = 0; i < 7; i++) await db.rows(CLAIM_JOBS, [10, [], []], runner);
      return db.one<{ generic: number; custom: number }>(
        `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = $1`,
        [CLAIM_JOBS.name],
        runner,
      );
    });
    expect(plans?.generic).toBeGreaterThan(0);
    expect(plans?.custom).toBeLessThanOrEqual(5);
  });

  it('with DATABASE_PREPARED_STATEMENTS=false runs it as plain text: nothing is prepared', async () => {
    expect(await preparedOn(off.notifyd.app.get(Db))).toEqual([]);
  });

  it('gives the same rows, counts and errors either way', async () => {
    const project = await on.createProject();
    for (const db of [on.notifyd.app.get(Db), off.notifyd.app.get(Db)]) {
      expect(await db.one(COUNT, [5])).toEqual({ n: 5 });
      expect(await db.exec(TOUCH, [[project.id, 'no-such-project']])).toBe(1);
      const err = await db.one(FAIL, [0]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QueryFailedError);
      expect(sqlState(err)).toBe('22012'); // division_by_zero
      // The connection is still usable after the error.
      expect(await db.one(FAIL, [1])).toEqual({ x: 1 });
    }
  });

  it('a statement the server no longer has runs again as text, and the process stops preparing', async () => {
    const db = refused.notifyd.app.get(Db);
    const runner = db.dataSource.createQueryRunner();
    await runner.connect();
    try {
      expect(await db.one(COUNT, [2], runner)).toEqual({ n: 2 });
      // What a pooler moving us to another server connection, or a DISCARD, looks like.
      await runner.query('DEALLOCATE ALL');
      expect(await db.one(COUNT, [3], runner)).toEqual({ n: 3 });
      expect(await db.one(COUNT, [4], runner)).toEqual({ n: 4 });
      expect(await runner.query(`SELECT name FROM pg_prepared_statements`)).toEqual([]);
    } finally {
      await runner.release();
    }
    // Inside a transaction the refusal aborts it: the error reaches the caller, whose retry runs as text.
    const inTransaction = on.notifyd.app.get(Db);
    const err = await inTransaction
      .transaction(async (r) => {
        await inTransaction.one(COUNT, [1], r);
        await r.query('DEALLOCATE ALL');
        return inTransaction.one(COUNT, [1], r);
      })
      .catch((e: unknown) => e);
    expect(sqlState(err)).toBe('26000');
    expect(await inTransaction.one(COUNT, [6])).toEqual({ n: 6 });
  });
});

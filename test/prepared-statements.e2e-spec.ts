import { QueryFailedError } from 'typeorm';
import { Db, sqlState } from '../src/database/db.js';
import { preparedSql } from '../src/database/prepared-sql.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The worker's batch statements are PreparedSql: by default a named statement on the
 * connection (planned once per connection), and plain text with DATABASE_PREPARED_STATEMENTS=
 * false for a pooler that cannot keep prepared statements. Same rows, same counts, same errors.
 */
describe('prepared statements (DATABASE_PREPARED_STATEMENTS)', () => {
  let on: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    on = await startTestApp();
    off = await startTestApp({ database: on.db, env: { DATABASE_PREPARED_STATEMENTS: 'false' } });
  });
  afterAll(async () => {
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
      return (await db.rows<{ name: string }>(`SELECT name FROM pg_prepared_statements`, [], runner)).map((r) => r.name);
    });

  it('by default runs a PreparedSql as a named statement on the connection', async () => {
    expect(await preparedOn(on.notifyd.app.get(Db))).toContain('notifyd_test_count');
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
});

// The ceiling: a bare node-postgres SKIP LOCKED loop with no framework around it. One claim
// statement per batch (UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED) RETURNING), one
// completion statement per batch, a partial index that serves the claim's ORDER BY.
import pg from 'pg';
import { CALL, DATABASE_URL, FUTURE, MODE, enqueueInCalls, report, stopRequested } from './protocol.mjs';

const BATCH = MODE === 'unbatched' ? 1 : 100;
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
await pool.query(`
  CREATE TABLE bare_jobs (id bigserial PRIMARY KEY, status smallint NOT NULL DEFAULT 0,
                          run_at timestamptz NOT NULL, payload jsonb NOT NULL DEFAULT '{}')`);
await pool.query(`CREATE INDEX bare_jobs_claim ON bare_jobs (run_at, id) WHERE status = 0`);

await enqueueInCalls((count) =>
  pool.query(
    `INSERT INTO bare_jobs (run_at, payload) SELECT $1, jsonb_build_object('n', g) FROM generate_series(1, $2) g`,
    [FUTURE, count],
  ),
);
void CALL;

let stopping = false;
async function loop() {
  while (!stopping) {
    const { rows } = await pool.query(
      `UPDATE bare_jobs j SET status = 1
         FROM (SELECT id FROM bare_jobs WHERE status = 0 AND run_at <= now()
                ORDER BY run_at, id LIMIT $1 FOR UPDATE SKIP LOCKED) c
        WHERE j.id = c.id RETURNING j.id`,
      [BATCH],
    );
    if (rows.length === 0) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    // The no-op "send", then completion: delete, as a queue that keeps no history would.
    await pool.query(`DELETE FROM bare_jobs WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
  }
}
const loops = [loop(), loop()];
report({ event: 'ready' });
await stopRequested();
stopping = true;
await Promise.all(loops);
await pool.end();

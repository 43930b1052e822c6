// Preloaded into a notifyd process under bench (node --import): counts the SQL statements the
// process sends through node-postgres, by statement text, and writes the counts to
// $BENCH_QUERY_COUNT_FILE on SIGUSR2. pg is resolved from $BENCH_NOTIFYD_ROOT, the tree whose
// dist/ runs, so that the patched Client is the one TypeORM uses.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const pg = createRequire(join(process.env.BENCH_NOTIFYD_ROOT, 'package.json'))('pg');
const counts = new Map();
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text === 'string') {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 100);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return original.call(this, config, ...rest);
};
process.on('SIGUSR2', () =>
  writeFileSync(process.env.BENCH_QUERY_COUNT_FILE, JSON.stringify(Object.fromEntries(counts))),
);

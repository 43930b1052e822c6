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
  // Counted by the text itself (statement texts are constants: their hash is cached), shortened
  // only when written: a regex over every statement cost notifyd ~2 % of its CPU under load.
  if (typeof text === 'string') counts.set(text, (counts.get(text) ?? 0) + 1);
  return original.call(this, config, ...rest);
};
process.on('SIGUSR2', () => {
  const byShortText = {};
  for (const [text, n] of counts) {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 100);
    byShortText[key] = (byShortText[key] ?? 0) + n;
  }
  writeFileSync(process.env.BENCH_QUERY_COUNT_FILE, JSON.stringify(byShortText));
});

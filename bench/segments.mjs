#!/usr/bin/env node
// bench/segments: POST /v1/batch {segment} over large audiences. For each size, a fresh
// database gets N subscribers, one API process sends one in-app message to the segment {}
// (everyone), and the process's resident memory is sampled during the call. Memory should not
// grow with N (the segment is read and queued one SEGMENT_PAGE_SIZE page at a time).
// notifyd runs with --trace-gc: the largest V8 heap left after a full (mark-compact) collection
// during the call is what the process really keeps; the RSS peak also holds garbage that V8
// collects lazily (its old generation may grow to about four times the live heap first).
//
//   npm run build && node bench/segments.mjs [--sizes 20000,200000,1000000]
//   BENCH_DATABASE_URL=postgres://… picks the server (default: the machine's PostgreSQL).
import {
  api,
  arg,
  createBenchDatabase,
  ensureBuilt,
  fmt,
  machine,
  sampleRss,
  startNotifyd,
  ADMIN_KEY,
} from './lib.mjs';

const SIZES = String(arg('sizes', '20000,200000')).split(',').map(Number);
/** --page-size (or SEGMENT_PAGE_SIZE): notifyd's SEGMENT_PAGE_SIZE for the run; its default otherwise. */
const PAGE_SIZE = String(arg('page-size', process.env.SEGMENT_PAGE_SIZE ?? ''));

async function run(n) {
  const db = await createBenchDatabase();
  const proc = await startNotifyd(
    {
      DATABASE_URL: db.url,
      NOTIFYD_ROLE: 'api',
      EMAIL_PROVIDER: 'log',
      DATABASE_MAX_CONNECTIONS: '8',
      ...(PAGE_SIZE ? { SEGMENT_PAGE_SIZE: PAGE_SIZE } : {}),
    },
    { nodeArgs: ['--trace-gc'] },
  );
  try {
    const { project } = await api(proc.url, '/v1/admin/projects', ADMIN_KEY, {
      id: 'seg',
      name: 'Segments',
      channels: ['in_app'],
    });
    await db.pool.query(
      `INSERT INTO subscribers (project_id, id, email, locale) SELECT 'seg', 'u' || g, 'u' || g || '@example.invalid', 'fr' FROM generate_series(1, $1) g`,
      [n],
    );
    await db.pool.query('VACUUM ANALYZE subscribers');
    const linesBefore = proc.lines.length;
    const rss = sampleRss(proc.pid, 100);
    const start = performance.now();
    const res = await api(proc.url, '/v1/batch', project.api_key, {
      channels: ['in_app'],
      segment: { locale: 'fr' },
      body: 'hello',
    });
    const seconds = (performance.now() - start) / 1000;
    const { idleMb, peakMb } = rss.stop();
    if (res.jobs_created !== n) throw new Error(`expected ${n} jobs, got ${JSON.stringify(res)}`);
    // "Mark-Compact 268.7 (304.5) -> 65.7 (147.4) MB": the heap used after a full collection.
    const live = proc.lines
      .slice(linesBefore)
      .flatMap((l) => [...l.matchAll(/Mark-Compact [\d.]+ \([\d.]+\) -> ([\d.]+)/g)].map((m) => Number(m[1])));
    const heapBefore = proc.lines
      .slice(linesBefore)
      .flatMap((l) => [...l.matchAll(/Mark-Compact ([\d.]+) \(/g)].map((m) => Number(m[1])));
    return {
      n,
      seconds,
      idleMb,
      peakMb,
      liveMb: live.length ? Math.max(...live) : NaN,
      fullGcs: live.length,
      heapPeakMb: heapBefore.length ? Math.max(...heapBefore) : NaN,
    };
  } finally {
    await proc.stop();
    await db.drop();
  }
}

ensureBuilt();
const results = [];
for (const n of SIZES) results.push(await run(n));
console.log(
  `# bench/segments (${machine()}; SEGMENT_PAGE_SIZE ${PAGE_SIZE || 'default'}${process.env.BENCH_NODE_ARGS ? `; node ${process.env.BENCH_NODE_ARGS}` : ''})`,
);
console.log(
  '| subscribers | batch call | jobs/s | RSS before | RSS peak | full GCs | heap before full GC (max) | heap after full GC (max) |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  console.log(
    `| ${fmt(r.n)} | ${fmt(r.seconds, 1)} s | ${fmt(r.n / r.seconds)} | ${fmt(r.idleMb)} MB | ${fmt(r.peakMb)} MB | ${r.fullGcs} | ${r.fullGcs ? `${fmt(r.heapPeakMb)} MB` : '—'} | ${r.fullGcs ? `${fmt(r.liveMb)} MB` : '—'} |`,
  );
}

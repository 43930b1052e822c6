#!/usr/bin/env node
// bench/segments: POST /v1/batch {segment} over large audiences. For each size, a fresh
// database gets N subscribers, one API process sends one in-app message to the segment {}
// (everyone), and the process's resident memory is sampled during the call. Memory should not
// grow with N (the segment is read and queued one SEGMENT_PAGE_SIZE page at a time).
//
//   npm run build && node bench/segments.mjs [--sizes 50000,200000]
//   BENCH_DATABASE_URL=postgres://… picks the server (default: the machine's PostgreSQL).
import { api, arg, createBenchDatabase, ensureBuilt, fmt, machine, sampleRss, startNotifyd, ADMIN_KEY } from './lib.mjs';

const SIZES = String(arg('sizes', '50000,200000')).split(',').map(Number);

async function run(n) {
  const db = await createBenchDatabase();
  const proc = await startNotifyd({ DATABASE_URL: db.url, NOTIFYD_ROLE: 'api', EMAIL_PROVIDER: 'log', DATABASE_MAX_CONNECTIONS: '8' });
  try {
    const { project } = await api(proc.url, '/v1/admin/projects', ADMIN_KEY, { id: 'seg', name: 'Segments', channels: ['in_app'] });
    await db.pool.query(`INSERT INTO subscribers (project_id, id, email, locale) SELECT 'seg', 'u' || g, 'u' || g || '@example.invalid', 'fr' FROM generate_series(1, $1) g`, [n]);
    await db.pool.query('VACUUM ANALYZE subscribers');
    const rss = sampleRss(proc.pid, 100);
    const start = performance.now();
    const res = await api(proc.url, '/v1/batch', project.api_key, { channels: ['in_app'], segment: { locale: 'fr' }, body: 'hello' });
    const seconds = (performance.now() - start) / 1000;
    const { idleMb, peakMb } = rss.stop();
    if (res.jobs_created !== n) throw new Error(`expected ${n} jobs, got ${JSON.stringify(res)}`);
    return { n, seconds, idleMb, peakMb };
  } finally {
    await proc.stop();
    await db.drop();
  }
}

ensureBuilt();
const results = [];
for (const n of SIZES) results.push(await run(n));
console.log(`# bench/segments (${machine()})`);
console.log('| subscribers | batch call | jobs/s | RSS before | RSS peak |');
console.log('|---:|---:|---:|---:|---:|');
for (const r of results) console.log(`| ${fmt(r.n)} | ${fmt(r.seconds, 1)} s | ${fmt(r.n / r.seconds)} | ${fmt(r.idleMb)} MB | ${fmt(r.peakMb)} MB |`);

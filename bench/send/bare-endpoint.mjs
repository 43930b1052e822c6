#!/usr/bin/env node
// bench/send's floor (issue 19): the least a POST /v1/send can cost on this machine. A bare
// server on the Fastify that notifyd runs on (resolved through @nestjs/platform-fastify) and
// node-postgres: it parses the same JSON body, checks X-Api-Key against the SHA-256 hash held in
// memory after its first lookup (as notifyd's key cache does), and commits one row into a jobs
// table migrated by notifyd's own migrations (same columns, indexes and trigger), with the
// columns notifyd's insert sets and a time-ordered id made by notifyd's own job-ids.js, in one
// autocommit INSERT; then it answers a small JSON of the same shape as notifyd's.
//
// What it leaves out is what the comparison measures: no request log, no DTO validation past
// the fields it reads, no suppression/preference/cap checks, no fair-share clock, no
// transaction of several statements, no signal. A body with `subscriber_id` and no `to` is
// stored with the subscriber id as the recipient (no subscriber lookup).
//
//   DATABASE_URL=postgres://… [BARE_POOL_SIZE=20] [HOST=127.0.0.1] [PORT=0] node bench/send/bare-endpoint.mjs
//   (the database must be migrated and hold the project row; bench/send/run.mjs does both)
// Prints `listening on http://…` when ready, as notifyd does; SIGTERM closes it.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import { root } from '../lib.mjs';

const require = createRequire(import.meta.url);
const Fastify = createRequire(require.resolve('@nestjs/platform-fastify'))('fastify');
const { newJobIdsLiteral } = await import(join(root, 'dist', 'src', 'jobs', 'job-ids.js'));

// The values notifyd's insert gives a plain send: priority normal (50), WORKER_MAX_ATTEMPTS's
// default (5), no template, topic or idempotency key, run_at = scheduled_at = now.
const INSERT_JOB = `
  INSERT INTO jobs (id, project_id, payload, priority, max_attempts, template_id, topic,
                    channel, subscriber_id, recipient, scheduled_at, run_at, idempotency_key)
  VALUES ($1, $2, $3::jsonb, 50, 5, NULL, NULL, $4, $5, $6, $7, $7, NULL)`;
const PROJECT_BY_KEY_HASH = `SELECT id FROM projects WHERE api_key_hash = $1`;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BARE_POOL_SIZE ?? 20) });
pool.on('error', (err) => process.stderr.write(`bare endpoint: idle connection lost (${err.message})\n`));

/** SHA-256 of a key → project id, filled by the first lookup of each key (known keys only). */
const projectsByKeyHash = new Map();

async function projectFor(key) {
  const hash = createHash('sha256').update(key, 'utf8').digest('hex');
  const cached = projectsByKeyHash.get(hash);
  if (cached) return cached;
  const { rows } = await pool.query(PROJECT_BY_KEY_HASH, [hash]);
  if (rows[0]) projectsByKeyHash.set(hash, rows[0].id);
  return rows[0]?.id;
}

const app = Fastify({ logger: false });
app.post('/v1/send', async (request, reply) => {
  const header = request.headers['x-api-key'];
  const key = typeof header === 'string' ? header.trim() : '';
  const projectId = key ? await projectFor(key) : undefined;
  if (!projectId)
    return reply.code(401).send({ error: { code: 'unauthorized', message: 'Missing or unknown API key.' } });
  const body = request.body ?? {};
  const channel = body.channel;
  const recipient = body.to ?? body.subscriber_id;
  if (typeof channel !== 'string' || typeof recipient !== 'string' || typeof body.body !== 'string') {
    return reply.code(400).send({
      error: { code: 'validation_failed', message: "Send 'channel', 'body' and 'to' or 'subscriber_id' as strings." },
    });
  }
  const id = newJobIdsLiteral(1).slice(1, -1); // '{id}' → id
  const now = new Date();
  const payload = JSON.stringify({ subject: body.subject, body: body.body, marketing: false });
  await pool.query(INSERT_JOB, [id, projectId, payload, channel, body.subscriber_id ?? null, recipient, now]);
  return {
    success: true,
    job_ids: [id],
    scheduled_at: now.toISOString(),
    channels: [channel],
    topic: null,
    skipped: [],
    deduplicated: false,
  };
});

const address = await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`bare endpoint listening on ${address}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});

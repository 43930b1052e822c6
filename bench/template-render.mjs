#!/usr/bin/env node
// bench/template-render: what rendering tenant templates in worker threads (src/templates/render/)
// costs on the send path. One typical email template (subject, text, ~1.5 KB of HTML, a loop and
// a condition), batches of --batch messages with distinct vars, rendered three ways:
//   in-process   LiquidRenderer on the calling thread (what the worker did before the pool)
//   pool         TemplateEngine.renderMany: one task (one message to a thread and back) per batch
//   pool 1/task  one task per message (a preview's shape; shows what batching saves)
// For each: µs of wall time per message, and µs of the calling thread's event loop per message
// (performance.eventLoopUtilization: the cost the API and the worker actually feel).
//
//   npm run build && node bench/template-render.mjs [--batch 100] [--rounds 300] [--threads 2]
import 'reflect-metadata';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { arg, ensureBuilt, fmt, machine, root } from './lib.mjs';

const BATCH = Number(arg('batch', 100));
const ROUNDS = Number(arg('rounds', 300));
const THREADS = Number(arg('threads', 2));

ensureBuilt();
const load = (path) => import(pathToFileURL(join(root, 'dist', 'src', 'templates', path)).href);
const { LiquidRenderer } = await load('render/liquid-renderer.js');
const { TemplateRenderPool } = await load('render/template-render-pool.js');
const { TemplateEngine } = await load('template-engine.js');

const templates = {
  parseLimit: 1_000_000,
  renderLimitMs: 250,
  memoryLimit: 20_000_000,
  outputLimit: 1_000_000,
  threads: THREADS,
  threadMemoryMb: 64,
  queueLimit: 64,
};
const variant = {
  subject: 'Your order {{ order.id }} has shipped',
  body: 'Hi {{ name }}, order {{ order.id }} ({{ order.items | size }} items) is on its way: {{ tracking_url }}',
  bodyHtml:
    '<!doctype html><html><body style="font-family:sans-serif"><table width="100%"><tr><td>' +
    '<h1>Hi {{ name }},</h1><p>Your order <b>{{ order.id }}</b> has shipped{% if vip %} with priority handling{% endif %}.</p>' +
    '<table>{% for item in order.items %}<tr><td>{{ item.name }}</td><td>{{ item.qty }}</td><td>{{ item.price | times: item.qty | round: 2 }} €</td></tr>{% endfor %}</table>' +
    '<p><a href="{{ tracking_url }}" style="background:#0a7;color:#fff;padding:8px 16px">Track your parcel</a></p>' +
    '<p style="color:#888;font-size:12px">You receive this email because you ordered from Acme. ' +
    'Questions? Reply to this email or write to support@acme.example. Acme Ltd, 1 Example Street, 75000 Paris.</p>' +
    '</td></tr></table></body></html>',
};
const task = (round) => ({
  variants: [variant],
  renders: Array.from({ length: BATCH }, (_, i) => ({
    variant: 0,
    vars: {
      name: `Customer <${round}-${i}>`,
      vip: i % 3 === 0,
      tracking_url: `https://track.example/p/${round}-${i}?a=1&b=2`,
      order: {
        id: `A-${round}-${i}`,
        items: [
          { name: 'Socks', qty: 2, price: 4.5 },
          { name: 'Hat', qty: 1, price: 19.9 },
          { name: 'Scarf', qty: 1, price: 24 },
        ],
      },
    },
  })),
});

async function measure(name, renderBatch) {
  for (let r = 0; r < Math.min(20, ROUNDS); r++) await renderBatch(task(-r - 1)); // warm-up (threads started, JIT, parse cache)
  const tasks = Array.from({ length: ROUNDS }, (_, r) => task(r));
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  for (const t of tasks) await renderBatch(t);
  const wallMs = performance.now() - t0;
  const elu = performance.eventLoopUtilization(elu0);
  const messages = ROUNDS * BATCH;
  return { name, wallUs: (wallMs * 1000) / messages, loopUs: (elu.active * 1000) / messages };
}

const check = (reply) => {
  if (reply.renders.some((r) => !r.content))
    throw new Error(`a render failed: ${JSON.stringify(reply.renders.find((r) => !r.content))}`);
};
console.log(`bench/template-render: batch ${BATCH}, ${ROUNDS} rounds, ${THREADS} thread(s); ${machine()}`);
console.log(
  `load average before: ${os
    .loadavg()
    .map((l) => fmt(l, 2))
    .join(' ')}`,
);
if (os.loadavg()[0] > 1) console.log('LOAD ABOVE 1 AT START: this run does not count');
const results = [];
const inProcess = new LiquidRenderer(templates);
results.push(await measure('in-process', async (t) => check(await inProcess.run(t))));
const config = { templates };
const pool = new TemplateRenderPool(config);
const engine = new TemplateEngine(config, pool);
try {
  results.push(await measure('pool', async (t) => check(await engine.renderMany(t))));
  results.push(
    await measure('pool 1/task', async (t) => {
      for (const r of t.renders)
        check(await engine.renderMany({ variants: t.variants, renders: [{ variant: 0, vars: r.vars }] }));
    }),
  );
} finally {
  await pool.onApplicationShutdown();
}
console.log(
  `load average after:  ${os
    .loadavg()
    .map((l) => fmt(l, 2))
    .join(' ')}`,
);
console.log('\n| mode | wall µs/message | event loop µs/message |\n|---|---:|---:|');
for (const r of results) console.log(`| ${r.name} | ${fmt(r.wallUs, 1)} | ${fmt(r.loopUs, 1)} |`);

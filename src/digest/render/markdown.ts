import type { DigestReport, Finding } from '../digest.types.js';

/** Escapes a table cell: pipes would split it, newlines would end the row. */
const cell = (value: unknown): string =>
  String(value ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');
const table = (head: string[], rows: unknown[][]): string[] => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
];
const age = (s: number | null) =>
  s === null ? '—' : s < 120 ? `${s} s` : s < 7_200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3_600)} h`;

/** A finding's exact MCP calls, marking those that need the admin key. */
const calls = (f: Finding): string =>
  f.calls?.length
    ? ` Calls: ${f.calls.map((c) => `\`${c.tool} ${JSON.stringify(c.arguments)}\`${c.admin ? ' (admin key)' : ''}`).join(', ')}.`
    : '';

/** The digest as Markdown, for a person or a chat: findings first, then the readings behind them. */
export function renderMarkdown(r: DigestReport): string {
  const i = r.instance;
  const providers =
    Object.entries(i.providers)
      .filter(([, p]) => p)
      .map(([c, p]) => `${c}=${p}`)
      .join(', ') || 'none';
  const out: string[] = [
    `# notifyd digest — last ${r.window} (${r.generated_at.slice(0, 16).replace('T', ' ')} UTC)`,
    '',
    `notifyd ${i.version} (${i.role}), up ${age(i.uptime_seconds)}; providers: ${providers}; email fallback: ${i.email_fallback_provider ?? 'none'}` +
      `; paused lanes: ${i.paused_lanes.length ? i.paused_lanes.join(', ') : 'none'}.`,
    '',
    `## Findings (${r.summary.critical} critical, ${r.summary.warning} warning, ${r.summary.info} info)`,
    '',
    ...r.findings.map(
      (f) =>
        `- **${f.severity}** \`${f.code}\`${f.owner ? ` (${f.owner === 'caller' ? `caller of ${f.project_ids?.join(', ') || 'a project'}` : 'operator'} acts)` : ''} — ${f.message} _${f.action}_${calls(f)}`,
    ),
    '',
    '## Queue',
    '',
    `${r.queue.pending} pending, ${r.queue.retry} retry, ${r.queue.processing} processing (${r.queue.stuck_processing} past the lease); ` +
      `${r.queue.due} due now, ${r.queue.late} late. ` +
      `Oldest waiting (since the time asked for): urgent ${age(r.queue.oldest_waiting_seconds.urgent)}, normal ${age(r.queue.oldest_waiting_seconds.normal)}, bulk ${age(r.queue.oldest_waiting_seconds.bulk)}.`,
    '',
    `Workers: ${r.workers.alive} alive` +
      (r.workers.last_beat_at ? `, last heartbeat ${r.workers.last_beat_at}` : ', none ever beat') +
      (r.workers.processes.length
        ? ` (${r.workers.processes.map((w) => `${w.host}/${w.pid}${w.alive ? '' : w.stopped_at ? ' stopped' : ' silent'}`).join(', ')})`
        : '') +
      '.',
    '',
    '## Outcomes',
    '',
  ];
  if (r.outcomes.length)
    out.push(
      ...table(
        ['channel', 'provider', 'sent', 'failed', 'bounced', 'cancelled'],
        r.outcomes.map((o) => [o.channel, o.provider, o.sent, o.failed, o.bounced, o.cancelled]),
      ),
    );
  else out.push('No job finished in this window.');
  if (r.failures.length) {
    out.push(
      '',
      '## Top failure causes',
      '',
      ...table(
        ['channel', 'count', 'reason', 'sample job', 'last seen'],
        r.failures.map((f) => [f.channel, f.count, f.reason, f.sample_job_id, f.last_seen]),
      ),
    );
  }
  if (r.retrying.length) {
    out.push(
      '',
      '## Retrying now',
      '',
      ...table(
        ['channel', 'provider', 'jobs', 'projects', 'main cause', 'oldest late', 'next retry', 'sample job'],
        r.retrying.map((c) => [
          c.channel,
          c.provider,
          c.count,
          c.projects,
          c.causes[0]?.reason ?? '—',
          age(c.oldest_late_seconds),
          c.next_retry_at ?? '—',
          c.sample_job_id,
        ]),
      ),
    );
  }
  if (r.retries_waiting.length) {
    out.push(
      '',
      '## Retries waiting',
      '',
      ...table(
        ['channel', 'attempts', 'jobs', 'next retry'],
        r.retries_waiting.map((w) => [w.channel, w.attempts, w.count, w.next_retry_at ?? '—']),
      ),
    );
  }
  if (r.latency.length) {
    out.push(
      '',
      '## Latency (scheduled → accepted by the provider)',
      '',
      ...table(
        ['channel', 'p50 s', 'p95 s', 'jobs'],
        r.latency.map((l) => [l.channel, l.p50_seconds, l.p95_seconds, l.samples]),
      ),
    );
  }
  const d = r.deliverability;
  out.push(
    '',
    '## Deliverability',
    '',
    `${d.delivered} delivered, ${d.bounced} bounced${d.complained === null ? '' : `, ${d.complained} complained`}; bounce rate ${d.bounce_rate_percent === null ? '—' : `${d.bounce_rate_percent} %`}` +
      `${d.complaint_rate_percent === null ? '' : `, complaint rate ${d.complaint_rate_percent} %`}.`,
  );
  if (r.lanes.length) {
    out.push(
      '',
      '## Lanes',
      '',
      ...table(
        ['lane', 'rate', 'paused until', 'why'],
        r.lanes.map((l) => [l.lane, l.rate_text, l.paused_until ?? '—', l.pause_kind ?? '—']),
      ),
    );
  }
  if (r.projects.length) {
    out.push(
      '',
      '## Projects',
      '',
      ...table(
        ['project', 'channels', 'sender', 'sent', 'failed'],
        r.projects.map((p) => [p.id, p.channels.join(', '), p.from_email ?? 'instance default', p.sent, p.failed]),
      ),
    );
  }
  const db = r.database;
  const autovacuum = db.jobs_autovacuum_blocked_by.length
    ? `blocked by ${db.jobs_autovacuum_blocked_by.join('; ')}`
    : 'on';
  out.push(
    '',
    '## Database',
    '',
    `jobs: ${db.jobs_live_tuples} live, ${db.jobs_dead_tuples} dead row versions (${db.jobs_dead_percent} %), last vacuum ${db.jobs_last_autovacuum ?? 'never'}, autovacuum ${autovacuum}; ` +
      `sessions waiting on the NOTIFY commit lock: ${db.notify_lock_waiters}.`,
    '',
  );
  return out.join('\n');
}

import type { DigestReport } from '../digest.types.js';

const MARK = { critical: '!!', warning: '!', info: '·' } as const;
/** Findings shown in a chat message; the rest are counted ("… N more"). */
const MAX_FINDINGS = 6;

/** The headline of a chat digest: what a phone notification shows. */
export function chatHeadline(r: DigestReport): string {
  if (r.summary.critical) return `notifyd: ${r.summary.critical} critical`;
  if (r.summary.warning) return `notifyd: ${r.summary.warning} warning${r.summary.warning > 1 ? 's' : ''}`;
  return 'notifyd: all quiet';
}

/** The digest as a short plain-text chat message (Slack, Discord, Telegram, email body). */
export function renderChat(r: DigestReport): string {
  const sent = r.outcomes.reduce((n, o) => n + o.sent, 0);
  const failed = r.outcomes.reduce((n, o) => n + o.failed, 0);
  const d = r.deliverability;
  const lines = [chatHeadline(r), `last ${r.window}, ${r.generated_at.slice(0, 16).replace('T', ' ')} UTC`, ''];
  for (const f of r.findings.slice(0, MAX_FINDINGS)) lines.push(`${MARK[f.severity]} ${f.message}`, `   → ${f.action}`);
  if (r.findings.length > MAX_FINDINGS) lines.push(`… ${r.findings.length - MAX_FINDINGS} more (GET /v1/admin/digest)`);
  lines.push(
    '',
    `queue: ${r.queue.pending} pending, ${r.queue.retry} retry, ${r.queue.processing} processing, ${r.queue.late} late; workers alive: ${r.workers.alive}`,
    `sent ${sent}, failed ${failed}`,
  );
  if (d.delivered || d.bounced || d.complained)
    lines.push(`delivered ${d.delivered}, bounced ${d.bounced}${d.complained ? `, complained ${d.complained}` : ''}`);
  if (r.instance.paused_lanes.length) lines.push(`paused lanes: ${r.instance.paused_lanes.join(', ')}`);
  return lines.join('\n');
}

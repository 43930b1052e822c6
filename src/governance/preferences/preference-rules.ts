import { MARKETING_TOPIC } from '../../domain/marketing.js';
import type { PreferenceRow } from './preference.types.js';

/** What a message is, for preference matching. */
export interface PreferenceSubject {
  channel: string;
  topic: string | null;
  /** Whether the message is marketing (governance/topics/marketing.ts): the `marketing` topic's preference then applies. */
  marketing?: boolean;
  /** Workflow id, then template id: the "workflow-or-template" scope, most specific first. */
  scopeIds: readonly string[];
}

/**
 * notifyd's decision order, most specific first; the first stored row that matches decides,
 * and with none the message is allowed:
 *   (channel, topic) > (*, topic) > [marketing only: (channel, marketing) > (*, marketing)]
 *   > (channel, workflow/template) > (*, workflow/template) > (channel, *) > (*, *)
 * A marketing message without a topic, or with one the subscriber has no row for, is stopped by
 * an opt-out of the `marketing` topic: one preference covers bulk sends, campaign tags and
 * `marketing:*` topics alike.
 * Returns the reason when the subscriber opted out, else null.
 */
export function optOutReason(prefs: readonly PreferenceRow[], m: PreferenceSubject): string | null {
  // Most recipients of a fan-out have no stored preference: skip building six reasons for them.
  if (prefs.length === 0) return null;
  const find = (channel: string, kind: PreferenceRow['scopeKind'], scope: string) =>
    prefs.find((p) => p.channel === channel && p.scopeKind === kind && p.scope === scope);
  const steps: [PreferenceRow | undefined, string][] = [];
  if (m.topic) {
    steps.push([find(m.channel, 'topic', m.topic), `subscriber opted out of topic '${m.topic}' on ${m.channel}`]);
    steps.push([find('*', 'topic', m.topic), `subscriber opted out of topic '${m.topic}'`]);
  }
  if (m.marketing && m.topic !== MARKETING_TOPIC) {
    steps.push([find(m.channel, 'topic', MARKETING_TOPIC), `subscriber opted out of marketing on ${m.channel}`]);
    steps.push([find('*', 'topic', MARKETING_TOPIC), 'subscriber opted out of marketing']);
  }
  for (const id of m.scopeIds) {
    steps.push([find(m.channel, 'workflow', id), `subscriber opted out of '${id}' on ${m.channel}`]);
    steps.push([find('*', 'workflow', id), `subscriber opted out of '${id}'`]);
  }
  steps.push([find(m.channel, 'all', '*'), `subscriber opted out of ${m.channel}`]);
  steps.push([find('*', 'all', '*'), 'subscriber opted out of all notifications']);
  for (const [row, reason] of steps) if (row) return row.enabled ? null : reason;
  return null;
}

/** The workflow-or-template scopes of a message: the workflow that sent it, then its template. */
export function scopeIdsOf(
  payload: { vars?: Record<string, unknown> } | undefined,
  templateId: string | null | undefined,
): string[] {
  const ids: string[] = [];
  const workflow = payload?.vars?.workflow_id;
  if (typeof workflow === 'string' && workflow) ids.push(workflow);
  if (templateId) ids.push(templateId);
  return ids;
}

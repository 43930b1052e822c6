import { escapeHtml } from '../../common/html/escape-html.js';
import type { OutboundMessage } from '../../connectors/connector.js';
import type { RenderedContent } from '../../templates/render/render-protocol.js';
import type { ClaimedJob } from './claimed-job.js';

export interface Sender {
  email: string;
  name?: string;
}

/**
 * notifyd's inline `{{var}}` substitution: strings verbatim, numbers and booleans as text,
 * null as empty, objects as JSON; unknown placeholders are left as they are. With `html` (an
 * inline `body_html`) every value is HTML-escaped, as a stored template's `body_html` is, and
 * `{{ var | raw }}` opts out for a trusted value; subject and text are not HTML and stay as given.
 */
export function renderVars(text: string | undefined, vars: Record<string, unknown> | undefined, options: { html?: boolean } = {}): string | undefined {
  if (text === undefined || !vars) return text;
  return text.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*(\|\s*raw\s*)?\}\}/g, (whole, key: string, raw: string | undefined) => {
    if (!Object.prototype.hasOwnProperty.call(vars, key)) return whole;
    const value = vars[key];
    if (value === null || value === undefined) return '';
    const shown = typeof value === 'object' ? JSON.stringify(value) : String(value);
    return options.html && !raw ? escapeHtml(shown) : shown;
  });
}

/**
 * A claimed job, rendered and addressed, as a connector receives it. `content` is the job's
 * stored template rendered by the worker; without it the inline fields are used.
 */
export function buildMessage(job: ClaimedJob, sender: Sender | undefined, content?: RenderedContent): OutboundMessage {
  const vars = job.payload.vars;
  return {
    jobId: job.id,
    projectId: job.projectId,
    channel: job.channel,
    recipient: job.recipient,
    subscriberId: job.subscriberId,
    // A template part that is absent (no subject, no HTML) falls back to the inline one,
    // rendered only then (not for every job whose template supplied it).
    subject: content?.subject ?? renderVars(job.payload.subject, vars),
    body: content?.body ?? renderVars(job.payload.body, vars),
    bodyHtml: content?.bodyHtml ?? renderVars(job.payload.body_html, vars, { html: true }),
    from: job.channel === 'email' ? sender : undefined,
    marketing: job.payload.marketing === true,
    topic: job.topic,
    priority: job.priority,
    attempt: job.attempts,
    idempotencyKey: job.id,
    payload: job.payload,
  };
}

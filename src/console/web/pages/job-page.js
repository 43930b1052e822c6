import { html } from 'htm/preact';
import { api } from '../api.js';
import { when } from '../format.js';
import { useLoad } from '../use-load.js';
import { ActionButton, Page, whenLoaded } from '../widgets.js';

/** One job's story, oldest first: enqueue, schedule, attempts, the provider's answer, webhook evidence, outcome. */
export function timeline(job) {
  const events = [
    { at: job.created_at, what: 'Enqueued', detail: `${job.channel} to ${job.recipient}, priority ${job.priority}` },
    // A send for later: shown when it was held past its enqueue (a plain send is scheduled at once).
    Date.parse(job.scheduled_at) - Date.parse(job.created_at) > 1000
      ? { at: job.scheduled_at, what: 'Scheduled for', detail: '' }
      : null,
    job.next_retry_at
      ? {
          at: job.next_retry_at,
          what: 'Next retry',
          detail: `after attempt ${job.attempts} of ${job.max_attempts}${job.error ? `: ${job.error}` : ''}`,
        }
      : null,
    job.sent_at
      ? {
          at: job.sent_at,
          what: 'Sent',
          detail: `${job.provider ?? ''}${job.provider_message_id ? `, message ${job.provider_message_id}` : ''}`,
        }
      : null,
    ...(job.provider_events ?? []).map((e) => ({
      at: e.occurred_at,
      what: `Provider: ${e.kind}`,
      detail: `${e.provider} ${e.type}${e.error ? `: ${e.error}` : ''}`,
    })),
    job.delivered_at ? { at: job.delivered_at, what: 'Delivered', detail: '' } : null,
    job.opened_at ? { at: job.opened_at, what: 'Opened', detail: '' } : null,
    job.clicked_at ? { at: job.clicked_at, what: 'Clicked', detail: '' } : null,
    job.bounced_at ? { at: job.bounced_at, what: 'Bounced', detail: '' } : null,
    job.complained_at ? { at: job.complained_at, what: 'Complained', detail: '' } : null,
  ].filter(Boolean);
  // Stable: events at the same instant keep the order above (enqueue before send).
  return events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

export function JobPage({ id, role }) {
  const { data: job, error, reload } = useLoad(() => api.get(`/v1/admin/jobs/${encodeURIComponent(id)}`), [id]);
  return html`<${Page} name="job" title=${html`Job <code>${id}</code>`} aside=${html`<a href="#/jobs">Back to the search</a>`}>
    ${whenLoaded(
      job,
      error,
      () => html`
      <p class="summary">${job.project_id ? `Project ${job.project_id} · ` : ''}<span class=${`status status-${job.status}`}>${job.status}</span> ·
        attempt ${job.attempts} of ${job.max_attempts}${job.error ? html` · <span class="error-text">${job.error}</span>` : null}</p>
      ${
        role === 'admin'
          ? html`<p class="buttons">
        ${['failed', 'cancelled'].includes(job.status) ? html`<${ActionButton} label="Retry" kind="primary" run=${() => api.post(`/v1/admin/jobs/${job.id}/retry`)} onDone=${reload} />` : null}
        ${['pending', 'retry'].includes(job.status) ? html`<${ActionButton} label="Cancel" run=${() => api.post(`/v1/admin/jobs/${job.id}/cancel`)} onDone=${reload} />` : null}
      </p>`
          : null
      }
      <h2>Timeline</h2>
      <ol class="timeline">${timeline(job).map((e) => html`<li><time datetime=${e.at}>${when(e.at)}</time> <strong>${e.what}</strong> ${e.detail}</li>`)}</ol>`,
    )}
  <//>`;
}

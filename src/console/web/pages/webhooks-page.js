import { html } from 'htm/preact';
import { api, query } from '../api.js';
import { when } from '../format.js';
import { useLoad } from '../use-load.js';
import { ActionButton, ErrorNote, listed, Page } from '../widgets.js';

const enc = encodeURIComponent;

/** Every project's webhook endpoints (GET /v1/admin/webhooks); an endpoint opens its deliveries. */
export function WebhooksPage() {
  const { data, error } = useLoad(() => api.get('/v1/admin/webhooks'), []);
  return html`<${Page} name="webhooks" title="Webhooks">
    ${listed(
      data?.webhooks,
      error,
      'No project has a webhook endpoint.',
      () => html`
      <table>
        <caption>${data.count} endpoints; secrets shown as hints.</caption>
        <thead><tr><th scope="col">Endpoint</th><th scope="col">Project</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Last success</th><th scope="col">Last failure</th></tr></thead>
        <tbody>${data.webhooks.map(
          (w) => html`<tr data-webhook=${w.id}>
          <td><a href=${`#/webhooks/${enc(w.id)}`}>${w.url}</a>${w.description ? html`<br /><span class="muted">${w.description}</span>` : null}</td>
          <td>${w.project_id}</td><td>${w.events.join(', ')}</td>
          <td>${w.enabled ? 'enabled' : html`<strong>disabled</strong>${w.disabled_reason ? `: ${w.disabled_reason}` : ''}`}</td>
          <td>${when(w.last_success_at)}</td><td>${when(w.last_failure_at)}</td>
        </tr>`,
        )}</tbody>
      </table>`,
    )}
  <//>`;
}

/** One endpoint's deliveries, newest first (GET /v1/admin/webhooks/:id/deliveries); the admin redelivers a failed or cancelled one. */
export function WebhookDeliveriesPage({ id, role }) {
  const { data, error, reload } = useLoad(
    () => api.get(`/v1/admin/webhooks/${enc(id)}/deliveries${query({ limit: 100 })}`),
    [id],
  );
  return html`<${Page} name="deliveries" title="Webhook deliveries" aside=${html`<a href="#/webhooks">All endpoints</a>`}>
    <p class="muted">Endpoint <code>${id}</code></p>
    <${ErrorNote} error=${error} />
    ${
      !data
        ? error
          ? null
          : html`<p class="loading">Loading…</p>`
        : data.items.length === 0
          ? html`<p>No delivery yet.</p>`
          : html`
      <table>
        <caption>The ${data.items.length} newest deliveries.</caption>
        <thead><tr><th scope="col">Created</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Next attempt</th>
          ${role === 'admin' ? html`<th scope="col">Change</th>` : null}</tr></thead>
        <tbody>${data.items.map(
          (d) => html`<tr data-delivery=${d.id} data-status=${d.status}>
          <td>${when(d.created_at)}</td><td><code>${d.event_type}</code></td>
          <td><span class=${`status status-${d.status}`}>${d.status}</span></td>
          <td>${d.attempts} / ${d.max_attempts}</td>
          <td>${d.last_status_code ?? ''} ${d.last_error ?? ''}</td>
          <td>${when(d.next_attempt_at)}</td>
          ${
            role === 'admin'
              ? html`<td>${
                  d.status === 'failed' || d.status === 'cancelled'
                    ? html`<${ActionButton} label="Redeliver" run=${() => api.post(`/v1/admin/webhooks/${enc(id)}/deliveries/${enc(d.id)}/redeliver`)} onDone=${reload} />`
                    : null
                }</td>`
              : null
          }
        </tr>`,
        )}</tbody>
      </table>`
    }
  <//>`;
}

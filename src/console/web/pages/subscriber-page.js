import { html } from 'htm/preact';
import { api } from '../api.js';
import { when } from '../format.js';
import { useLoad } from '../use-load.js';
import { Page, whenLoaded } from '../widgets.js';

const enc = encodeURIComponent;

/** `data` as stored, or for the read-only session (which is not given its values) the keys it holds. */
function dataOf(subscriber) {
  const withheld = subscriber.withheld_data_keys;
  if (!withheld) return html`<code>${JSON.stringify(subscriber.data ?? {})}</code>`;
  if (withheld.length === 0) return html`<code>{}</code>`;
  return html`<span data-withheld>values withheld from the read-only key; keys: ${withheld.map((k, i) => html`${i ? ', ' : ''}<code>${k}</code>`)}</span>`;
}

/** One subscriber (masked) and their preferences; changing preferences stays with the project's key or the subscriber. */
export function SubscriberPage({ project, id }) {
  const base = `/v1/admin/projects/${enc(project)}/subscribers/${enc(id)}`;
  const { data, error } = useLoad(() => Promise.all([api.get(base), api.get(`${base}/preferences`)]), [base]);
  const [subscriber, prefs] = data ?? [];
  return html`<${Page} name="subscriber" title=${html`Subscriber <code>${id}</code>`} aside=${html`<a href=${`#/subscribers/${enc(project)}`}>All of ${project}'s subscribers</a>`}>
    ${whenLoaded(
      data,
      error,
      () => html`
      <dl class="evidence profile">
        <dt>Name</dt><dd>${[subscriber.first_name, subscriber.last_name].filter(Boolean).join(' ') || '—'}</dd>
        <dt>Email</dt><dd>${subscriber.email ?? '—'}</dd>
        <dt>Phone</dt><dd>${subscriber.phone ?? '—'}</dd>
        <dt>Locale</dt><dd>${subscriber.locale ?? '—'}</dd>
        <dt>Time zone</dt><dd>${subscriber.timezone ?? '—'}</dd>
        <dt>Data</dt><dd>${dataOf(subscriber)}</dd>
        <dt>Created</dt><dd>${when(subscriber.created_at)}</dd>
        <dt>Updated</dt><dd>${when(subscriber.updated_at)}</dd>
      </dl>
      <h2 id="preferences-title">Preferences</h2>
      ${
        prefs.preferences.length === 0
          ? html`<p>No preference stored: every channel and topic is on.</p>`
          : html`
        <table aria-labelledby="preferences-title">
          <thead><tr><th scope="col">Channel</th><th scope="col">Scope</th><th scope="col">Setting</th><th scope="col">Changed</th></tr></thead>
          <tbody>${prefs.preferences.map(
            (p) => html`<tr data-preference=${`${p.channel}/${p.scope_kind}/${p.workflow_id ?? ''}`}>
            <td>${p.channel}</td>
            <td>${p.scope_kind === 'all' || !p.workflow_id ? 'everything' : html`${p.scope_kind} <code>${p.workflow_id}</code>`}</td>
            <td>${p.enabled ? 'opted in' : html`<strong>opted out</strong>`}</td>
            <td>${when(p.updated_at)}</td>
          </tr>`,
          )}</tbody>
        </table>`
      }`,
    )}
  <//>`;
}

import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { evidenceEntries, when } from '../format.js';
import { ErrorNote, Page } from '../widgets.js';

const EMPTY = { who: '', project_id: '', since: '', until: '' };

/** An address (email, phone, chat id) goes as `recipient`; anything else is taken for a subscriber id. */
export function traceParams(form) {
  const who = form.who.trim();
  const address = who.includes('@') || /^\+?[\d\s().-]{7,}$/.test(who) || who.startsWith('http');
  return {
    [address ? 'recipient' : 'subscriber_id']: who,
    project_id: form.project_id.trim(),
    since: form.since ? new Date(form.since).toISOString() : '',
    until: form.until ? new Date(form.until).toISOString() : '',
    limit: 100,
  };
}

/** Each message's evidence in a few lines: the attempts with the provider's answers, the webhook events, the suppression. */
function Evidence({ message }) {
  // A trace shows each job's newest 50 attempts and events; say when older ones were left out.
  const lines = [
    ...(message.attempt_log_omitted ? [`${message.attempt_log_omitted} older attempt(s) not shown`] : []),
    ...message.attempt_log.map(
      (a) =>
        `${when(a.at)} attempt ${a.attempt} ${a.outcome}${a.counted ? '' : ' (not counted)'}${a.provider ? `, ${a.provider}` : ''}: ${a.error ?? '—'}`,
    ),
    ...(message.provider_events_omitted
      ? [`${message.provider_events_omitted} older provider event(s) not shown`]
      : []),
    ...message.provider_events.map(
      (e) => `${when(e.occurred_at)} ${e.provider} ${e.type} (${e.kind})${e.error ? `: ${e.error}` : ''}`,
    ),
  ];
  const s = message.suppression;
  if (!lines.length && !s) return '—';
  return html`<details><summary>Evidence</summary>
    ${lines.length ? html`<ul class="trace-evidence">${lines.map((line) => html`<li>${line}</li>`)}</ul>` : null}
    ${
      s
        ? html`<p>Suppressed since ${when(s.created_at)}: ${s.reason} (${s.source})${s.detail ? ` — ${s.detail}` : ''}</p>
      ${evidenceEntries(s.evidence).length ? html`<dl class="evidence">${evidenceEntries(s.evidence).map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>` : null}`
        : null
    }
  </details>`;
}

/** The answer in one sentence: how many messages by verdict, the subscribers and the suppressions found. */
function summary(data) {
  const verdicts =
    Object.entries(data.verdicts)
      .map(([verdict, n]) => `${n} ${verdict}`)
      .join(', ') || 'none';
  const subscribers = data.recipient.subscribers.length
    ? ` Subscribers: ${data.recipient.subscribers.map((s) => `${s.project_id}/${s.id}`).join(', ')}.`
    : '';
  const suppressed = data.recipient.suppressions.length
    ? ` Suppressed: ${data.recipient.suppressions.map((s) => `${s.channel} ${s.reason} (${s.source})`).join(', ')}.`
    : '';
  const more = data.truncated ? ' (more matched: narrow the range)' : '';
  return `${data.count} message(s) between ${when(data.since)} and ${when(data.until)}${more}: ${verdicts}.${subscribers}${suppressed}`;
}

/**
 * "Why didn't they get it?" (GET /v1/admin/trace): one recipient's messages, newest first, each
 * with its verdict, the reason in words and the evidence; recipients masked as the API masks them.
 */
export function TracePage() {
  const [form, setForm] = useState(EMPTY);
  const [state, setState] = useState({ data: null, error: null, busy: false });
  const field = (name) => ({
    id: `trace-${name}`,
    name,
    value: form[name],
    onInput: (e) => setForm({ ...form, [name]: e.currentTarget.value }),
  });
  const submit = async (e) => {
    e.preventDefault();
    if (!form.who.trim()) return;
    setState({ data: state.data, error: null, busy: true });
    try {
      setState({ data: await api.get(`/v1/admin/trace${query(traceParams(form))}`), error: null, busy: false });
    } catch (error) {
      setState({ data: null, error, busy: false });
    }
  };
  const { data, error, busy } = state;
  return html`<${Page} name="trace" title="Trace" aside=${html`<span class="muted">Why didn’t they get it?</span>`}>
    <form class="filters" onSubmit=${submit} role="search" aria-label="Trace a recipient">
      <label for="trace-who">Recipient or subscriber id</label>
      <input ...${field('who')} required maxlength="320" size="32" placeholder="jane@example.com, +33612345678 or user-42" />
      <label for="trace-project_id">Project</label><input ...${field('project_id')} maxlength="63" placeholder="all projects" />
      <label for="trace-since">Since</label><input type="datetime-local" ...${field('since')} />
      <label for="trace-until">Until</label><input type="datetime-local" ...${field('until')} />
      <button type="submit" class="primary" disabled=${busy}>${busy ? 'Tracing…' : 'Trace'}</button>
    </form>
    <${ErrorNote} error=${error} />
    ${
      !data
        ? html`<p class="muted">Every message notifyd was asked to send one recipient (default: the last 7 days), and what decided its fate.</p>`
        : html`
      <p class="summary" data-trace-summary>${summary(data)}</p>
      ${
        data.messages.length === 0
          ? html`<p>Nothing was asked for this recipient in this range: no job and no refused send.</p>`
          : html`
      <table>
        <caption>${data.count} messages, newest first; recipients masked.</caption>
        <thead><tr><th scope="col">Asked</th><th scope="col">Project</th><th scope="col">Channel</th><th scope="col">Verdict</th><th scope="col">Why</th><th scope="col">Evidence</th></tr></thead>
        <tbody>${data.messages.map(
          (m) => html`<tr data-verdict=${m.verdict}>
          <td>${m.job_id ? html`<a href=${`#/jobs/${m.job_id}`}>${when(m.created_at)}</a>` : when(m.created_at)}</td>
          <td>${m.project_id}</td><td>${m.channel}<br /><span class="muted">${m.recipient || '—'}</span></td>
          <td><span class=${`status verdict-${m.verdict}`}>${m.verdict}</span>${m.rule ? html`<br /><span class="muted">${m.rule}</span>` : null}</td>
          <td>${m.reason}</td><td><${Evidence} message=${m} /></td>
        </tr>`,
        )}</tbody>
      </table>`
      }`
    }
  <//>`;
}

import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { when } from '../format.js';
import { useLoad } from '../use-load.js';
import { listed, Page } from '../widgets.js';

const STATUSES = ['pending', 'processing', 'retry', 'sent', 'failed', 'cancelled', 'bounced'];
const CHANNELS = ['email', 'sms', 'whatsapp', 'push', 'in_app', 'telegram', 'slack', 'discord'];
const EMPTY = { project_id: '', status: '', channel: '', recipient: '', topic: '', since: '' };

/** Search across projects (GET /v1/admin/jobs); each row opens the job's timeline. */
export function JobsPage() {
  const [form, setForm] = useState(EMPTY);
  const [filters, setFilters] = useState(EMPTY);
  const { data, error } = useLoad(
    () =>
      api.get(
        `/v1/admin/jobs${query({ ...filters, since: filters.since ? new Date(filters.since).toISOString() : '' })}`,
      ),
    [filters],
  );
  const field = (name) => ({
    id: `jobs-${name}`,
    name,
    value: form[name],
    onInput: (e) => setForm({ ...form, [name]: e.currentTarget.value }),
  });
  const submit = (e) => {
    e.preventDefault();
    setFilters(form);
  };
  return html`<${Page} name="jobs" title="Jobs">
    <form class="filters" onSubmit=${submit} role="search" aria-label="Search jobs">
      <label for="jobs-status">Status</label>
      <select ...${field('status')} onChange=${(e) => setForm({ ...form, status: e.currentTarget.value })}>
        <option value="">any</option>${STATUSES.map((s) => html`<option value=${s}>${s}</option>`)}
      </select>
      <label for="jobs-channel">Channel</label>
      <select ...${field('channel')} onChange=${(e) => setForm({ ...form, channel: e.currentTarget.value })}>
        <option value="">any</option>${CHANNELS.map((c) => html`<option value=${c}>${c}</option>`)}
      </select>
      <label for="jobs-recipient">Recipient</label><input ...${field('recipient')} placeholder="exact address" maxlength="2048" />
      <label for="jobs-project_id">Project</label><input ...${field('project_id')} maxlength="63" />
      <label for="jobs-topic">Topic</label><input ...${field('topic')} maxlength="64" />
      <label for="jobs-since">Since</label><input type="datetime-local" ...${field('since')} />
      <button type="submit" class="primary">Search</button>
    </form>
    ${listed(
      data?.jobs,
      error,
      'No job matches (the default window is the last 7 days).',
      () => html`
      <table>
        <caption>${data.count} jobs, newest first; recipients masked.</caption>
        <thead><tr><th scope="col">Created</th><th scope="col">Project</th><th scope="col">Channel</th><th scope="col">Status</th><th scope="col">Recipient</th><th scope="col">Subject</th><th scope="col">Attempts</th><th scope="col">Error</th></tr></thead>
        <tbody>${data.jobs.map(
          (job) => html`<tr data-job=${job.id}>
          <td><a href=${`#/jobs/${job.id}`}>${when(job.created_at)}</a></td>
          <td>${job.project_id}</td><td>${job.channel}</td><td><span class=${`status status-${job.status}`}>${job.status}</span></td>
          <td>${job.recipient}</td><td>${job.subject ?? '—'}</td><td>${job.attempts} / ${job.max_attempts}</td><td>${job.error ?? ''}</td>
        </tr>`,
        )}</tbody>
      </table>`,
    )}
  <//>`;
}

import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { evidenceEntries, when } from '../format.js';
import { useLoad } from '../use-load.js';
import { ActionButton, listed, Page } from '../widgets.js';

/** Active suppressions (GET /v1/admin/suppressions; addresses masked), each with its evidence; the admin releases one. */
export function SuppressionsPage({ role }) {
  const [project, setProject] = useState('');
  const [filter, setFilter] = useState('');
  const { data, error, reload } = useLoad(
    () => api.get(`/v1/admin/suppressions${query({ project_id: filter, limit: 200 })}`),
    [filter],
  );
  const submit = (e) => {
    e.preventDefault();
    setFilter(project.trim());
  };
  return html`<${Page} name="suppressions" title="Suppressions">
    <form class="filters" onSubmit=${submit} role="search" aria-label="Filter suppressions">
      <label for="suppressions-project">Project</label>
      <input id="suppressions-project" value=${project} maxlength="63" placeholder="all projects" onInput=${(e) => setProject(e.currentTarget.value)} />
      <button type="submit" class="primary">Show</button>
    </form>
    ${listed(
      data?.suppressions,
      error,
      'No active suppression.',
      () => html`
      <table>
        <caption>${data.count} active, newest first; addresses masked.</caption>
        <thead><tr><th scope="col">Since</th><th scope="col">Project</th><th scope="col">Address</th><th scope="col">Scope</th><th scope="col">Why</th><th scope="col">Evidence</th>
          ${role === 'admin' ? html`<th scope="col">Change</th>` : null}</tr></thead>
        <tbody>${data.suppressions.map(
          (s) => html`<tr data-suppression=${s.id}>
          <td>${when(s.created_at)}</td><td>${s.project_id}</td><td>${s.channel}: ${s.address}</td><td>${s.scope}</td>
          <td>${s.reason} (${s.source})${s.detail ? html`<br /><span class="muted">${s.detail}</span>` : null}</td>
          <td>${
            evidenceEntries(s.evidence).length
              ? html`<details><summary>Evidence</summary><dl class="evidence">
            ${evidenceEntries(s.evidence).map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl></details>`
              : '—'
          }</td>
          ${role === 'admin' ? html`<td><${ActionButton} label="Release" run=${() => api.del(`/v1/admin/suppressions/${encodeURIComponent(s.id)}`)} onDone=${reload} /></td>` : null}
        </tr>`,
        )}</tbody>
      </table>`,
    )}
  <//>`;
}

import { html } from 'htm/preact';
import { api, query } from '../api.js';
import { when } from '../format.js';
import { ProjectPicker } from '../project-picker.js';
import { useLoad } from '../use-load.js';
import { ErrorNote, Page, whenLoaded } from '../widgets.js';

const enc = encodeURIComponent;

/** A project's workflows and its newest runs (GET /v1/admin/projects/:id/workflows, …/runs); a run opens its steps. */
export function WorkflowsPage({ project }) {
  const base = project ? `/v1/admin/projects/${enc(project)}/workflows` : null;
  const { data, error } = useLoad(
    () =>
      base
        ? Promise.all([api.get(base), api.get(`${base}/runs${query({ limit: 50 })}`)])
        : new Promise(() => undefined),
    [base],
  );
  const [workflows, runs] = data ?? [];
  return html`<${Page} name="workflows" title="Workflows" aside=${html`<${ProjectPicker} page="workflows" project=${project} />`}>
    <${ErrorNote} error=${error} />
    ${
      !data
        ? html`<p class="loading">Loading…</p>`
        : html`
      ${
        workflows.count === 0
          ? html`<p>This project has no workflow.</p>`
          : html`<table>
        <caption>${workflows.count} workflows.</caption>
        <thead><tr><th scope="col">Workflow</th><th scope="col">Trigger event</th><th scope="col">Steps</th><th scope="col">State</th><th scope="col">Updated</th></tr></thead>
        <tbody>${workflows.workflows.map(
          (w) => html`<tr data-workflow=${w.id}>
          <th scope="row">${w.name || w.id}${w.name && w.name !== w.id ? html` <code class="muted">${w.id}</code>` : null}</th>
          <td><code>${w.trigger_event}</code></td><td>${w.steps.map((s) => s.type).join(' → ')}</td>
          <td>${w.enabled ? 'enabled' : 'disabled'}</td><td>${when(w.updated_at)}</td>
        </tr>`,
        )}</tbody>
      </table>`
      }
      <h2 id="runs-title">Runs</h2>
      ${
        runs.items.length === 0
          ? html`<p>No run yet.</p>`
          : html`<table aria-labelledby="runs-title">
        <thead><tr><th scope="col">Started</th><th scope="col">Workflow</th><th scope="col">Subscriber</th><th scope="col">Status</th><th scope="col">Step</th><th scope="col">Outcome</th></tr></thead>
        <tbody>${runs.items.map(
          (r) => html`<tr data-run=${r.id}>
          <td><a href=${`#/workflows/${enc(project)}/${enc(r.id)}`}>${when(r.created_at)}</a></td>
          <td>${r.workflow_id}</td><td>${r.subscriber_id}</td><td><span class=${`status status-${r.status}`}>${r.status}</span></td>
          <td>${r.current_step}</td><td>${r.outcome ?? r.error ?? ''}</td>
        </tr>`,
        )}</tbody>
      </table>`
      }`
    }
  <//>`;
}

/** One run: where it stands and what each step did (its history), with links to the jobs it sent. */
export function WorkflowRunPage({ project, id }) {
  const { data, error } = useLoad(
    () => api.get(`/v1/admin/projects/${enc(project)}/workflows/runs/${enc(id)}`),
    [project, id],
  );
  const run = data?.run;
  return html`<${Page} name="run" title="Workflow run" aside=${html`<a href=${`#/workflows/${enc(project)}`}>All of ${project}'s workflows</a>`}>
    ${whenLoaded(
      run,
      error,
      () => html`
      <dl class="evidence">
        <dt>Run</dt><dd><code>${run.id}</code></dd>
        <dt>Workflow</dt><dd>${run.workflow_id}</dd><dt>Subscriber</dt><dd>${run.subscriber_id}</dd>
        <dt>Event</dt><dd><code>${run.trigger_event}</code></dd>
        <dt>Status</dt><dd><span class=${`status status-${run.status}`}>${run.status}</span>${run.resume_at ? ` until ${when(run.resume_at)}` : ''}</dd>
        <dt>Outcome</dt><dd>${run.outcome ?? run.error ?? '—'}</dd>
        <dt>Started</dt><dd>${when(run.created_at)}</dd><dt>Finished</dt><dd>${when(run.finished_at)}</dd>
      </dl>
      <h2>Steps</h2>
      ${
        run.history.length === 0
          ? html`<p>No step has run yet.</p>`
          : html`<ol class="timeline steps">
        ${run.history.map(
          (h) => html`<li data-step=${h.step}>
          <strong>Step ${h.step}: ${h.type}</strong> — ${h.result ?? 'done'} <span class="muted">${when(h.at)}</span>
          ${h.detail ? html`<br /><span>${h.detail}</span>` : null}
          ${h.job_ids?.length ? html`<br />jobs: ${h.job_ids.map((j) => html`<a href=${`#/jobs/${enc(j)}`}>${j.slice(0, 8)}</a> `)}` : null}
        </li>`,
        )}
      </ol>`
      }`,
    )}
  <//>`;
}

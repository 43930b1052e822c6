import { html } from 'htm/preact';
import { api, query } from '../api.js';
import { when } from '../format.js';
import { ProjectPicker } from '../project-picker.js';
import { useLoad } from '../use-load.js';
import { listed, Page } from '../widgets.js';

const enc = encodeURIComponent;

/** A project's template variants (GET /v1/admin/projects/:id/templates); a row opens the editor. */
export function TemplatesPage({ project }) {
  const { data, error } = useLoad(
    () =>
      project
        ? api.get(`/v1/admin/projects/${enc(project)}/templates${query({ limit: 100 })}`)
        : new Promise(() => undefined),
    [project],
  );
  return html`<${Page} name="templates" title="Templates" aside=${html`<${ProjectPicker} page="templates" project=${project} />`}>
    ${listed(
      data?.items,
      error,
      'This project has no template.',
      () => html`
      <table>
        <caption>${data.total ?? data.items.length} variants (template × channel × locale).</caption>
        <thead><tr><th scope="col">Template</th><th scope="col">Channel</th><th scope="col">Locale</th><th scope="col">Subject</th><th scope="col">Topic</th><th scope="col">Updated</th></tr></thead>
        <tbody>${data.items.map(
          (t) => html`<tr data-template=${t.id}>
          <td><a href=${`#/templates/${enc(project)}/${enc(t.id)}`}>${t.id}</a></td>
          <td>${t.channel}</td><td>${t.locale ?? 'default'}</td><td>${t.subject ?? '—'}</td><td>${t.topic ?? '—'}</td><td>${when(t.updated_at)}</td>
        </tr>`,
        )}</tbody>
      </table>`,
    )}
  <//>`;
}

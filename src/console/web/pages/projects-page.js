import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { when } from '../format.js';
import { useLoad } from '../use-load.js';
import { ActionButton, ErrorNote, Page } from '../widgets.js';
import { ProjectProviders } from './project-providers.js';

/**
 * Projects (GET /v1/admin/projects; keys as hints only), each with its own provider accounts
 * (secrets masked by the API). The admin creates a project, rotates keys and sets or removes a
 * project's provider; a new key is shown once, here, and kept nowhere by the page once it is dismissed.
 */
export function ProjectsPage({ role }) {
  const { data, error, reload } = useLoad(() => api.get('/v1/admin/projects'), []);
  const [shown, setShown] = useState(null);
  const reveal = (what) => (response) => {
    setShown({ what, key: response.project?.api_key ?? response.new_api_key });
    void reload();
  };
  return html`<${Page} name="projects" title="Projects">
    ${
      shown
        ? html`<div class="shown-once" role="status">
      <p><strong>${shown.what}</strong>: store this key now, it cannot be shown again.</p>
      <p><code data-new-key>${shown.key}</code></p>
      <button type="button" class="secondary" onClick=${() => setShown(null)}>I have stored it</button>
    </div>`
        : null
    }
    ${role === 'admin' ? html`<${CreateProject} onCreated=${reveal('New project key')} />` : null}
    <${ErrorNote} error=${error} />
    ${
      !data
        ? html`<p class="loading">Loading…</p>`
        : html`
      <table>
        <caption>${data.projects.length} projects; keys shown as hints.</caption>
        <thead><tr><th scope="col">Project</th><th scope="col">Channels</th><th scope="col">Rate limit</th><th scope="col">Sender</th><th scope="col">Keys</th><th scope="col">Own providers</th><th scope="col">Created</th>
          ${role === 'admin' ? html`<th scope="col">Change</th>` : null}</tr></thead>
        <tbody>${data.projects.map(
          (p) => html`<tr data-project=${p.id}>
          <th scope="row">${p.id}<br /><span class="muted">${p.name}</span></th>
          <td>${p.channels.join(', ')}</td><td>${p.rate_limit_per_min} / min</td>
          <td>${p.from_email ? `${p.from_name ? `${p.from_name} ` : ''}<${p.from_email}>` : '—'}</td>
          <td><code>${p.api_key_hint ?? '—'}</code>${p.secondary_api_key_hint ? html`<br /><span class="muted">previous: <code>${p.secondary_api_key_hint}</code></span>` : null}</td>
          <td><${ProjectProviders} projectId=${p.id} role=${role} /></td>
          <td>${when(p.created_at)}</td>
          ${
            role === 'admin'
              ? html`<td>
            <${ActionButton} label="Rotate key" run=${() => api.post(`/v1/admin/projects/${encodeURIComponent(p.id)}/rotate-key`).then(reveal(`New key of ${p.id}`))} />
            ${p.secondary_api_key_hint ? html`<${ActionButton} label="Revoke previous key" run=${() => api.post(`/v1/admin/projects/${encodeURIComponent(p.id)}/revoke-secondary`)} onDone=${reload} />` : null}
          </td>`
              : null
          }
        </tr>`,
        )}</tbody>
      </table>`
    }
  <//>`;
}

function CreateProject({ onCreated }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      onCreated(await api.post('/v1/admin/projects', { id: id.trim(), name: name.trim() }));
      setId('');
      setName('');
    } catch (err) {
      setError(err);
    }
  };
  return html`<form class="filters" onSubmit=${submit} aria-label="Create a project">
    <label for="project-id">New project id</label>
    <input id="project-id" data-mutates="true" required maxlength="63" value=${id} onInput=${(e) => setId(e.currentTarget.value)} />
    <label for="project-name">Name</label>
    <input id="project-name" data-mutates="true" required maxlength="200" value=${name} onInput=${(e) => setName(e.currentTarget.value)} />
    <button type="submit" class="primary" data-mutates="true">Create project</button>
    ${error ? html`<span class="error" role="alert">${error.message}</span>` : null}
  </form>`;
}

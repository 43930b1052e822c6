import { html } from 'htm/preact';
import { useEffect } from 'preact/hooks';
import { api } from './api.js';
import { useLoad } from './use-load.js';

/**
 * The project a per-project page shows, chosen from GET /v1/admin/projects; the choice lives in
 * the location hash (`#/<page>/<project>`) so back, reload and links keep it.
 */
export function ProjectPicker({ page, project }) {
  const { data } = useLoad(() => api.get('/v1/admin/projects'), []);
  const ids = data?.projects.map((p) => p.id) ?? [];
  useEffect(() => {
    if (!project && ids.length) location.replace(`#/${page}/${encodeURIComponent(ids[0])}`);
  }, [project, ids.join(',')]);
  return html`<label>Project <select value=${project ?? ''} onChange=${(e) => {
    location.hash = `#/${page}/${encodeURIComponent(e.currentTarget.value)}`;
  }}>
    ${ids.map((id) => html`<option value=${id}>${id}</option>`)}
  </select></label>`;
}

/** `#/<page>/<project>/<rest…>` → its parts, decoded. */
export function hashParts(hash) {
  return (hash || '')
    .replace(/^#\/?/, '')
    .split('/')
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
}

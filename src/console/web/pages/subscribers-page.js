import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { when } from '../format.js';
import { ProjectPicker } from '../project-picker.js';
import { useLoad } from '../use-load.js';
import { listed, Page } from '../widgets.js';

const PAGE_SIZE = 25;
const enc = encodeURIComponent;

/** A project's subscribers (GET /v1/admin/projects/:id/subscribers): search, cursor pages; a row opens the subscriber. */
export function SubscribersPage({ project }) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  // The cursors of the pages before this one: "Previous" pops, "Next" pushes.
  const [cursors, setCursors] = useState([]);
  const cursor = cursors[cursors.length - 1];
  const { data, error } = useLoad(
    () =>
      project
        ? api.get(`/v1/admin/projects/${enc(project)}/subscribers${query({ q: search, cursor, limit: PAGE_SIZE })}`)
        : new Promise(() => undefined),
    [project, search, cursor],
  );
  const submit = (e) => {
    e.preventDefault();
    setCursors([]);
    setSearch(text.trim());
  };
  return html`<${Page} name="subscribers" title="Subscribers" aside=${html`<${ProjectPicker} page="subscribers" project=${project} />`}>
    <form class="filters" role="search" aria-label="Search subscribers" onSubmit=${submit}>
      <label for="subscribers-q">Search</label>
      <input id="subscribers-q" type="search" maxlength="200" placeholder="id, email or name" value=${text} onInput=${(e) => setText(e.currentTarget.value)} />
      <button type="submit" class="primary">Search</button>
    </form>
    ${listed(
      data?.items,
      error,
      'No subscriber matches.',
      () => html`
      <table>
        <caption>Page ${cursors.length + 1}: ${data.items.length} subscribers; email and phone masked.</caption>
        <thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Phone</th><th scope="col">Locale</th><th scope="col">Updated</th></tr></thead>
        <tbody>${data.items.map(
          (s) => html`<tr data-subscriber=${s.id}>
          <td><a href=${`#/subscribers/${enc(project)}/${enc(s.id)}`}>${s.id}</a></td>
          <td>${[s.first_name, s.last_name].filter(Boolean).join(' ') || '—'}</td>
          <td>${s.email ?? '—'}</td><td>${s.phone ?? '—'}</td><td>${s.locale ?? '—'}</td><td>${when(s.updated_at)}</td>
        </tr>`,
        )}</tbody>
      </table>`,
    )}
    <p class="pager">
      <button type="button" class="secondary" disabled=${cursors.length === 0} onClick=${() => setCursors(cursors.slice(0, -1))}>Previous page</button>
      <button type="button" class="secondary" disabled=${!data?.next_cursor} onClick=${() => setCursors([...cursors, data.next_cursor])}>Next page</button>
    </p>
  <//>`;
}

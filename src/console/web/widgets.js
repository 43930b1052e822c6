import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

/**
 * A console page: a section labelled by its heading `title` (id `<name>-title`), `aside` beside
 * the heading (a back link, the project picker), then the page's own parts.
 */
export function Page({ name, title, aside = null, children }) {
  return html`<section aria-labelledby=${`${name}-title`}>
    <div class="page-head"><h1 id=${`${name}-title`}>${title}</h1>${aside}</div>
    ${children}
  </section>`;
}

export function ErrorNote({ error }) {
  if (!error) return null;
  return html`<p class="error" role="alert">${error.message}</p>`;
}

/** A button for one API change: disabled while it runs, its failure shown beside it. */
export function ActionButton({ label, run, onDone, kind = 'secondary' }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const click = async () => {
    setBusy(true);
    setError(null);
    try {
      await run();
      onDone?.();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<span class="action">
    <button type="button" class=${kind} data-mutates="true" disabled=${busy} onClick=${click}>${busy ? `${label}…` : label}</button>
    ${error ? html`<span class="error" role="alert">${error.message}</span>` : null}
  </span>`;
}

export function Severity({ level }) {
  return html`<span class=${`severity severity-${level}`}>${level}</span>`;
}

const loading = () => html`<p class="loading">Loading…</p>`;

/**
 * A page part that shows one loaded thing: why the load failed (ErrorNote), "Loading…" until
 * `data` comes, nothing more if the load failed, then `content()`.
 */
export function whenLoaded(data, error, content) {
  return html`<${ErrorNote} error=${error} />${data ? content() : error ? null : loading()}`;
}

/**
 * A loaded list: why the load failed (ErrorNote), "Loading…" until `list` comes, the sentence
 * `empty` when it is empty, else `content()`.
 */
export function listed(list, error, empty, content) {
  const shown = !list ? loading() : list.length === 0 ? html`<p>${empty}</p>` : content();
  return html`<${ErrorNote} error=${error} />${shown}`;
}

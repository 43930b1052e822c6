import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

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
 * A page part that shows one loaded thing: "Loading…" until `data` comes, nothing if the load
 * failed (the ErrorNote above it says why), then `content()`.
 */
export function whenLoaded(data, error, content) {
  if (data) return content();
  return error ? null : loading();
}

/** A loaded list: "Loading…" until `list` comes, the sentence `empty` when it is empty, else `content()`. */
export function listed(list, empty, content) {
  if (!list) return loading();
  return list.length === 0 ? html`<p>${empty}</p>` : content();
}

import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { useLoad } from '../use-load.js';
import { ActionButton, ErrorNote } from '../widgets.js';

const CHANNELS = ['email', 'sms', 'whatsapp', 'push', 'telegram', 'slack', 'discord'];

/**
 * A project's own provider accounts (GET /v1/admin/projects/:id/providers): secret settings
 * arrive masked from the API and are shown as they arrive. The admin sets one (PUT, settings as
 * JSON: what is typed is sent once and not kept by the page) or removes one (DELETE).
 */
export function ProjectProviders({ projectId, role }) {
  const path = `/v1/admin/projects/${encodeURIComponent(projectId)}/providers`;
  const { data, error, reload } = useLoad(() => api.get(path), [path]);
  return html`<div data-providers=${projectId}>
    <${ErrorNote} error=${error} />
    ${
      !data
        ? html`<span class="muted">…</span>`
        : data.providers.length === 0
          ? html`<span class="muted">the instance's</span><br />`
          : html`<ul class="plain">
      ${data.providers.map(
        (p) => html`<li data-provider=${`${p.channel}:${p.provider}`}>
        <strong>${p.channel}</strong>: ${p.provider}${' '}<span class="muted">${Object.entries(p.settings)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}</span>
        ${role === 'admin' ? html` <${ActionButton} label=${`Remove ${p.channel} provider`} run=${() => api.del(`${path}/${p.channel}`)} onDone=${reload} />` : null}
      </li>`,
      )}
    </ul>`
    }
    ${role === 'admin' ? html`<${SetProvider} path=${path} projectId=${projectId} onSaved=${reload} />` : null}
  </div>`;
}

function SetProvider({ path, projectId, onSaved }) {
  const [open, setOpen] = useState(false);
  const [channel, setChannel] = useState('email');
  const [provider, setProvider] = useState('');
  const [settings, setSettings] = useState('{}');
  const [error, setError] = useState(null);
  if (!open)
    return html`<button type="button" class="secondary" data-mutates="true" onClick=${() => setOpen(true)}>Set a provider</button>`;
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    let parsed;
    try {
      parsed = JSON.parse(settings);
    } catch {
      setError(new Error('settings must be a JSON object, e.g. {"api_key": "re_…"}'));
      return;
    }
    try {
      await api.put(`${path}/${channel}`, { provider: provider.trim(), settings: parsed });
      setSettings('{}');
      setOpen(false);
      onSaved();
    } catch (err) {
      setError(err);
    }
  };
  const id = (what) => `provider-${what}-${projectId}`;
  return html`<form class="filters" onSubmit=${submit} aria-label=${`Set a provider for ${projectId}`}>
    <label for=${id('channel')}>Channel</label>
    <select id=${id('channel')} data-mutates="true" value=${channel} onChange=${(e) => setChannel(e.currentTarget.value)}>
      ${CHANNELS.map((c) => html`<option value=${c}>${c}</option>`)}
    </select>
    <label for=${id('name')}>Provider</label>
    <input id=${id('name')} data-mutates="true" required maxlength="40" value=${provider} onInput=${(e) => setProvider(e.currentTarget.value)} />
    <label for=${id('settings')}>Settings (JSON)</label>
    <textarea id=${id('settings')} data-mutates="true" rows="2" autocomplete="off" spellcheck="false" value=${settings} onInput=${(e) => setSettings(e.currentTarget.value)}></textarea>
    <button type="submit" class="primary" data-mutates="true">Save provider</button>
    ${error ? html`<span class="error" role="alert">${error.message}</span>` : null}
  </form>`;
}

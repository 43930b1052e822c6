import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { actionCalls } from '../finding-actions.js';
import { evidenceEntries, number, when } from '../format.js';
import { useLive } from '../live.js';
import { useLoad } from '../use-load.js';
import { ActionButton, ErrorNote, Severity } from '../widgets.js';

const WINDOWS = ['1h', '24h', '7d'];

/** The digest: findings as the digest ranks them, each with its evidence, its action and (admin) its one-click calls. */
export function DigestPage({ role }) {
  const [span, setSpan] = useState('24h');
  // Live: reloaded when the admin event stream says lanes changed or jobs arrived (at most every 5 s: the digest is a heavy read); the 60-s poll is the fallback.
  const { data, error, reload } = useLoad(() => api.get(`/v1/admin/digest${query({ window: span })}`), [span], 60_000);
  useLive('digest', reload, 5_000);
  return html`<section aria-labelledby="digest-title">
    <div class="page-head">
      <h1 id="digest-title">Digest</h1>
      <label>Window <select value=${span} onChange=${(e) => setSpan(e.currentTarget.value)}>
        ${WINDOWS.map((w) => html`<option value=${w}>${w}</option>`)}
      </select></label>
    </div>
    <${ErrorNote} error=${error} />
    ${
      data
        ? html`
      <p class="summary">Generated ${when(data.generated_at)} ·
        ${number(data.summary?.critical)} critical, ${number(data.summary?.warning)} warning, ${number(data.summary?.info)} info ·
        queue: ${number(data.queue?.pending)} pending, ${number(data.queue?.retry)} retrying</p>
      <ol class="findings">
        ${data.findings.map((f) => html`<${Finding} finding=${f} role=${role} onDone=${reload} />`)}
      </ol>`
        : html`<p class="loading">Loading…</p>`
    }
  </section>`;
}

function Finding({ finding, role, onDone }) {
  const calls = role === 'admin' ? actionCalls(finding.action) : [];
  const evidence = evidenceEntries(finding.evidence);
  return html`<li class="finding" data-code=${finding.code}>
    <p><${Severity} level=${finding.severity} /> <code>${finding.code}</code></p>
    <p class="message">${finding.message}</p>
    <p class="finding-action"><strong>Action:</strong> ${finding.action}</p>
    ${calls.length ? html`<p>${calls.map((c) => html`<${ActionButton} label=${c.label} kind="primary" run=${() => api.post(c.path)} onDone=${onDone} />`)}</p>` : null}
    ${
      evidence.length
        ? html`<details><summary>Evidence</summary><dl class="evidence">
      ${evidence.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}
    </dl></details>`
        : null
    }
  </li>`;
}

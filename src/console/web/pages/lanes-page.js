import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { number, when } from '../format.js';
import { useLive } from '../live.js';
import { useLoad } from '../use-load.js';
import { ActionButton, listed, Page } from '../widgets.js';

const PAUSES = [
  ['600', '10 minutes'],
  ['3600', '1 hour'],
  ['86400', '1 day'],
];

/** Every lane's pacing: rate, tokens, adaptive rate, pause and why; pause and resume for the admin. */
export function LanesPage({ role }) {
  // Live: the admin event stream says when a pause was set or lifted; the 30-s poll is the fallback.
  const { data, error, reload } = useLoad(() => api.get('/v1/admin/lanes'), [], 30_000);
  useLive('lanes', reload);
  return html`<${Page} name="lanes" title="Lanes">
    ${listed(
      data?.lanes,
      error,
      'No lane has paced a call yet.',
      () => html`
      <table>
        <caption>Rates are tokens per second shared by every replica (0 = unpaced).</caption>
        <thead><tr>
          <th scope="col">Lane</th><th scope="col">Rate</th><th scope="col">In force</th><th scope="col">Tokens</th>
          <th scope="col">Adaptive</th><th scope="col">Pause</th><th scope="col">Calls</th>
          ${role === 'admin' ? html`<th scope="col">Change</th>` : null}
        </tr></thead>
        <tbody>${data.lanes.map((lane) => html`<${LaneRow} lane=${lane} role=${role} onDone=${reload} />`)}</tbody>
      </table>`,
    )}
  <//>`;
}

function LaneRow({ lane, role, onDone }) {
  return html`<tr data-lane=${lane.lane} data-paused=${String(lane.paused)}>
    <th scope="row">${lane.lane}${lane.active ? null : html` <span class="muted">(former)</span>`}</th>
    <td>${number(lane.rate)} / s, burst ${number(lane.burst)}</td>
    <td>${number(lane.effective_rate)} / s</td>
    <td>${number(lane.tokens)}</td>
    <td>${lane.adaptive_rate === null ? '—' : html`${number(lane.adaptive_rate)} / s until ${when(lane.adaptive_until)}`}</td>
    <td>${lane.paused ? html`<strong>Paused</strong> until ${when(lane.paused_until)} (${lane.pause_kind}${lane.pause_reason ? `: ${lane.pause_reason}` : ''})` : 'running'}</td>
    <td>${number(lane.totals?.calls)} calls, ${number(lane.totals?.pauses)} pauses</td>
    ${
      role === 'admin'
        ? html`<td>${
            lane.paused
              ? html`<${ActionButton} label="Resume" kind="primary" run=${() => api.post(`/v1/admin/lanes/${encodeURIComponent(lane.lane)}/resume`)} onDone=${onDone} />`
              : html`<${PauseForm} lane=${lane.lane} onDone=${onDone} />`
          }</td>`
        : null
    }
  </tr>`;
}

function PauseForm({ lane, onDone }) {
  const [duration, setDuration] = useState('3600');
  const [reason, setReason] = useState('');
  const id = lane.replace(/[^A-Za-z0-9_-]/g, '-');
  return html`<div class="pause-form">
    <label for=${`pause-for-${id}`} class="visually-hidden">Pause ${lane} for</label>
    <select id=${`pause-for-${id}`} data-mutates="true" value=${duration} onChange=${(e) => setDuration(e.currentTarget.value)}>
      ${PAUSES.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
    </select>
    <label for=${`pause-why-${id}`} class="visually-hidden">Why pause ${lane}</label>
    <input id=${`pause-why-${id}`} data-mutates="true" placeholder="why (optional)" maxlength="300" value=${reason} onInput=${(e) => setReason(e.currentTarget.value)} />
    <${ActionButton} label=${`Pause`} run=${() => api.post(`/v1/admin/lanes/${encodeURIComponent(lane)}/pause`, { duration_secs: Number(duration), ...(reason.trim() ? { reason: reason.trim() } : {}) })} onDone=${onDone} />
  </div>`;
}

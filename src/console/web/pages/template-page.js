import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useLoad } from '../use-load.js';
import { ActionButton, Page, whenLoaded } from '../widgets.js';

const enc = encodeURIComponent;
const PREVIEW_DELAY_MS = 300;
const variantKey = (v) => `${v.channel}/${v.locale ?? ''}`;

/**
 * One template: pick a variant (channel × locale), edit its source and sample variables, and see
 * it rendered by POST /v1/admin/projects/:id/templates/:template_id/preview (the draft, unsaved,
 * in the variant's locale) as you type. The admin saves the variant (POST /v1/admin/projects/:id/templates).
 */
export function TemplatePage({ project, id, role }) {
  const base = `/v1/admin/projects/${enc(project)}/templates`;
  const { data, error, reload } = useLoad(() => api.get(`${base}/${enc(id)}`), [base, id]);
  const [key, setKey] = useState(null);
  const variant = data?.variants.find((v) => variantKey(v) === key) ?? data?.variants[0];
  return html`<${Page} name="template" title=${html`Template <code>${id}</code>`} aside=${html`<a href=${`#/templates/${enc(project)}`}>All of ${project}'s templates</a>`}>
    ${whenLoaded(
      data,
      error,
      () => html`
      <p><label>Variant <select value=${variantKey(variant)} onChange=${(e) => setKey(e.currentTarget.value)}>
        ${data.variants.map((v) => html`<option value=${variantKey(v)}>${v.channel}, ${v.locale ?? 'default locale'}</option>`)}
      </select></label></p>
      <${Editor} key=${variantKey(variant)} base=${base} id=${id} variant=${variant} role=${role} onSaved=${reload} />`,
    )}
  <//>`;
}

function Editor({ base, id, variant, role, onSaved }) {
  const [subject, setSubject] = useState(variant.subject ?? '');
  const [body, setBody] = useState(variant.body);
  const [bodyHtml, setBodyHtml] = useState(variant.body_html ?? '');
  const [vars, setVars] = useState('{\n  "name": "Jane"\n}');
  const [preview, setPreview] = useState({ result: null, error: null });
  let parsed = null;
  let varsError = null;
  try {
    parsed = JSON.parse(vars || '{}');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('an object');
  } catch {
    varsError = 'Sample variables must be a JSON object, e.g. {"name": "Jane"}.';
  }
  const draft = { body, ...(subject ? { subject } : {}), ...(bodyHtml ? { body_html: bodyHtml } : {}) };
  const request =
    varsError || !body
      ? null
      : { channel: variant.channel, ...(variant.locale ? { locale: variant.locale } : {}), vars: parsed, draft };
  const requestText = JSON.stringify(request);
  useEffect(() => {
    if (!request) return undefined;
    let current = true;
    const timer = setTimeout(() => {
      api.post(`${base}/${enc(id)}/preview`, request).then(
        (result) => current && setPreview({ result, error: null }),
        (error) => current && setPreview((prev) => ({ result: prev.result, error })),
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [requestText]);
  const save = () =>
    api.post(base, {
      id,
      channel: variant.channel,
      ...(variant.locale ? { locale: variant.locale } : {}),
      ...(variant.topic ? { topic: variant.topic } : {}),
      ...draft,
    });
  const { result } = preview;
  return html`<div class="editor">
    <form class="editor-source" onSubmit=${(e) => e.preventDefault()}>
      <label for="tpl-subject">Subject</label>
      <input id="tpl-subject" maxlength="998" value=${subject} onInput=${(e) => setSubject(e.currentTarget.value)} />
      <label for="tpl-body">Body</label>
      <textarea id="tpl-body" rows="8" maxlength="100000" value=${body} onInput=${(e) => setBody(e.currentTarget.value)}></textarea>
      <label for="tpl-html">HTML body (optional)</label>
      <textarea id="tpl-html" rows="5" value=${bodyHtml} onInput=${(e) => setBodyHtml(e.currentTarget.value)}></textarea>
      <label for="tpl-vars">Sample variables (JSON)</label>
      <textarea id="tpl-vars" rows="5" aria-describedby="tpl-vars-error" value=${vars} onInput=${(e) => setVars(e.currentTarget.value)}></textarea>
      <span id="tpl-vars-error" class="error-text">${varsError ?? ''}</span>
      ${role === 'admin' ? html`<p><${ActionButton} label="Save variant" kind="primary" run=${save} onDone=${onSaved} /></p>` : html`<p class="hint">Read-only: edits here only change the preview.</p>`}
    </form>
    <section class="preview" aria-labelledby="preview-title" aria-live="polite">
      <h2 id="preview-title">Preview</h2>
      ${preview.error ? html`<p class="error" role="alert">${preview.error.message}</p>` : null}
      ${
        result
          ? html`
        <p class="muted">${result.channel}, rendered with the ${result.locale ?? 'default'} variant${result.topic ? `, topic ${result.topic}` : ''}</p>
        ${result.subject !== null ? html`<p><strong data-preview-subject>${result.subject}</strong></p>` : null}
        <pre data-preview-body>${result.body}</pre>
        ${result.body_html ? html`<details><summary>HTML</summary><pre>${result.body_html}</pre></details>` : null}`
          : html`<p class="muted">Rendering…</p>`
      }
    </section>
  </div>`;
}

import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { signIn } from './api.js';

/** The key is sent once, exchanged for the session cookie, and dropped from the form. */
export function SignIn({ onSignedIn }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(key);
      setKey('');
      onSignedIn(session);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="sign-in" id="main">
    <h1>notifyd console</h1>
    <form onSubmit=${submit}>
      <label for="key">Operator key</label>
      <input id="key" name="key" type="password" autocomplete="off" required maxlength="512" value=${key} onInput=${(e) => setKey(e.currentTarget.value)} />
      <p class="hint">The admin key (ADMIN_API_KEY) or the read-only key (READONLY_API_KEY). It is exchanged for a session cookie and not kept by this page.</p>
      <button type="submit" class="primary" disabled=${busy}>Sign in</button>
      ${error ? html`<p class="error" role="alert">${error.message}</p>` : null}
    </form>
  </main>`;
}

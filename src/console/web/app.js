import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { currentSession, signOut } from './api.js';
import { DigestPage } from './pages/digest-page.js';
import { JobPage } from './pages/job-page.js';
import { JobsPage } from './pages/jobs-page.js';
import { LanesPage } from './pages/lanes-page.js';
import { ProjectsPage } from './pages/projects-page.js';
import { SuppressionsPage } from './pages/suppressions-page.js';
import { TracePage } from './pages/trace-page.js';
import { SignIn } from './sign-in.js';
import { MORE_NAV, morePage } from './more-pages.js';

const NAV = [
  ['#/digest', 'Digest'],
  ['#/jobs', 'Jobs'],
  ['#/trace', 'Trace'],
  ['#/lanes', 'Lanes'],
  ['#/suppressions', 'Suppressions'],
  ['#/projects', 'Projects'],
];

/** The page a location hash names: #/digest (the default), #/jobs, #/jobs/<id>, #/trace, #/lanes, #/suppressions, #/projects. */
export function route(hash) {
  const [, page = 'digest', id] = (hash || '#/digest').replace(/^#/, '').split('/');
  if (page === 'jobs' && id) return { page: 'job', id: decodeURIComponent(id) };
  return { page: ['digest', 'jobs', 'trace', 'lanes', 'suppressions', 'projects'].includes(page) ? page : 'digest' };
}

function useHash() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash;
}

export function App() {
  const [session, setSession] = useState(undefined);
  const hash = useHash();
  useEffect(() => {
    currentSession().then(setSession, () => setSession(null));
  }, []);
  if (session === undefined) return html`<p class="loading">Loading the console…</p>`;
  if (!session) return html`<${SignIn} onSignedIn=${setSession} />`;
  const current = route(hash);
  const out = async () => {
    await signOut().catch(() => undefined);
    setSession(null);
  };
  const more = morePage(hash, session.role);
  if (more) current.page = more.page;
  return html`<div class="shell" data-role=${session.role}>
    <a class="skip" href="#main" onClick=${(e) => {
      e.preventDefault();
      document.getElementById('main')?.focus();
    }}>Skip to content</a>
    <header>
      <span class="brand">notifyd</span>
      <nav aria-label="Console pages"><ul>
        ${[...NAV, ...MORE_NAV].map(([href, label]) => html`<li><a href=${href} aria-current=${(current.page === 'job' ? '#/jobs' : `#/${current.page}`) === href ? 'page' : undefined}>${label}</a></li>`)}
      </ul></nav>
      <span class="role" title="What this session may do">${session.role === 'admin' ? 'admin' : 'read-only'}</span>
      <button type="button" class="secondary" onClick=${out}>Sign out</button>
    </header>
    <main id="main" tabindex="-1">
      ${more ? more.view : null}
      ${current.page === 'digest' ? html`<${DigestPage} role=${session.role} />` : null}
      ${current.page === 'jobs' ? html`<${JobsPage} role=${session.role} />` : null}
      ${current.page === 'job' ? html`<${JobPage} id=${current.id} role=${session.role} />` : null}
      ${current.page === 'trace' ? html`<${TracePage} />` : null}
      ${current.page === 'lanes' ? html`<${LanesPage} role=${session.role} />` : null}
      ${current.page === 'suppressions' ? html`<${SuppressionsPage} role=${session.role} />` : null}
      ${current.page === 'projects' ? html`<${ProjectsPage} role=${session.role} />` : null}
    </main>
  </div>`;
}

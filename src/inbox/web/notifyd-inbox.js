/*
 * <notifyd-inbox>: notifyd's embeddable in-app inbox, a framework-free web component.
 *
 *   <script src="https://notifyd.example.com/inbox/notifyd-inbox.js" defer></script>
 *   <notifyd-inbox api-base="https://notifyd.example.com" subscriber-id="user_123"
 *                  token="<subscriber token from your backend>"></notifyd-inbox>
 *
 * A bell with the unread badge; the list opens on click (and marks everything seen); clicking a
 * message marks it read and follows its link; "Mark all read"; "Preferences" opens the
 * subscriber's hosted preference page (a signed link asked for when the panel opens). Live over Server-Sent Events
 * with single-use tickets: on a dropped stream it takes a new ticket and resumes from the last
 * event id, so nothing is missed and every tab shows the same counts. The host page's origin
 * must be in notifyd's CORS_ORIGINS: when notifyd cannot be reached (a refused origin looks the
 * same to a page) the bell shows "!" and the panel says so, instead of staying silently empty.
 * Labels follow `lang` on the element, else the page's, in the unsubscribe pages' languages
 * (en, fr, es, de). Expiring tokens: set `element.tokenProvider = async () => newToken` and a
 * refused token (401) is replaced and the call retried once; without it the element emits
 * `notifyd-inbox:token-expired`, and setting a new `token` attribute starts it again.
 * Emits `notifyd-inbox:counts` ({unread_count, unseen_count}), `notifyd-inbox:message`
 * ({message}) and `notifyd-inbox:error` ({kind, message}) on the element.
 */
(() => {
  if (customElements.get('notifyd-inbox')) return;

  const LABELS = {
    en: {
      title: 'Notifications',
      markAll: 'Mark all read',
      preferences: 'Preferences',
      empty: 'No notifications',
      unreachable: 'Notifications are unavailable right now.',
      expired: 'Your session has expired: reload the page.',
    },
    fr: {
      title: 'Notifications',
      markAll: 'Tout marquer comme lu',
      preferences: 'Préférences',
      empty: 'Aucune notification',
      unreachable: 'Les notifications sont indisponibles pour le moment.',
      expired: 'Votre session a expiré : rechargez la page.',
    },
    es: {
      title: 'Notificaciones',
      markAll: 'Marcar todo como leído',
      preferences: 'Preferencias',
      empty: 'No hay notificaciones',
      unreachable: 'Las notificaciones no están disponibles ahora.',
      expired: 'Tu sesión ha caducado: recarga la página.',
    },
    de: {
      title: 'Benachrichtigungen',
      markAll: 'Alle als gelesen markieren',
      preferences: 'Einstellungen',
      empty: 'Keine Benachrichtigungen',
      unreachable: 'Benachrichtigungen sind gerade nicht verfügbar.',
      expired: 'Deine Sitzung ist abgelaufen: Lade die Seite neu.',
    },
  };
  // An SVG bell: an emoji is a blank box on systems without an emoji font.
  const BELL =
    '<svg part="bell-icon" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9"/><path d="M13.73 21a2 2 0 0 1-3.46 0"/></svg>';

  /** A failure the element shows: `unreachable` (network or CORS), `expired` (token refused) or `http`. */
  class InboxError extends Error {
    constructor(kind, message) {
      super(message);
      this.kind = kind;
    }
  }

  const STYLE = `
    :host { position: relative; display: inline-block; font: 14px/1.4 system-ui, sans-serif; color: #1f2328; }
    button { font: inherit; cursor: pointer; }
    [part=bell] { position: relative; border: 0; background: none; font-size: 20px; padding: 4px 8px; }
    [part=badge] { position: absolute; top: -2px; right: -2px; min-width: 18px; padding: 0 4px; border-radius: 9px;
      background: #d1242f; color: #fff; font-size: 11px; line-height: 18px; text-align: center; }
    [part=badge][hidden] { display: none; }
    [part=bell] svg { vertical-align: middle; }
    [part=error] { padding: 10px 12px; color: #82071e; background: #ffebe9; border-bottom: 1px solid #ffcecb; }
    [part=error] small { display: block; color: #656d76; word-break: break-word; }
    [part=error][hidden] { display: none; }
    [part=panel] { position: absolute; right: 0; z-index: 1000; width: 340px; max-height: 420px; overflow: auto;
      background: #fff; border: 1px solid #d0d7de; border-radius: 8px; box-shadow: 0 8px 24px rgba(0,0,0,.12); }
    [part=panel][hidden] { display: none; }
    header { display: flex; justify-content: space-between; align-items: center; padding: 8px 12px; border-bottom: 1px solid #d0d7de; }
    header button, header a { border: 0; background: none; color: #0969da; font: inherit; }
    header span { display: flex; gap: 12px; align-items: center; }
    [part=preferences][hidden] { display: none; }
    ul { list-style: none; margin: 0; padding: 0; }
    li { padding: 10px 12px; border-bottom: 1px solid #f0f1f3; cursor: pointer; }
    li[data-read=false] { background: #ddf4ff; }
    li .title { font-weight: 600; }
    li time { display: block; color: #656d76; font-size: 12px; }
    .empty { padding: 16px; color: #656d76; text-align: center; }`;

  class NotifydInbox extends HTMLElement {
    constructor() {
      super();
      this.items = [];
      this.lastEventId = null;
      this.source = null;
      this.retry = 1000;
      this.closed = true;
      const root = this.attachShadow({ mode: 'open' });
      const l = this.labels;
      root.innerHTML = `<style>${STYLE}</style>
        <button part="bell" aria-label="${l.title}">${BELL}<span part="badge" hidden>0</span></button>
        <div part="panel" hidden role="dialog" aria-label="${l.title}">
          <header><strong>${l.title}</strong><span><a part="preferences" target="_blank" rel="noopener" hidden>${l.preferences}</a><button part="mark-all" type="button">${l.markAll}</button></span></header>
          <div part="error" role="alert" hidden></div>
          <ul part="list"></ul>
        </div>`;
      this.errorBox = root.querySelector('[part=error]');
      this.badge = root.querySelector('[part=badge]');
      this.panel = root.querySelector('[part=panel]');
      this.list = root.querySelector('[part=list]');
      this.preferencesLink = root.querySelector('[part=preferences]');
      root.querySelector('[part=bell]').addEventListener('click', () => this.toggle());
      root
        .querySelector('[part=mark-all]')
        .addEventListener('click', () => this.api('/read-all', { method: 'POST', body: '{}' }));
      this.list.addEventListener('click', (e) => {
        const li = e.target.closest('li[data-id]');
        if (li) this.open(li.dataset.id);
      });
    }

    static get observedAttributes() {
      return ['token'];
    }

    /** A new token (after notifyd-inbox:token-expired) starts the element again. */
    attributeChangedCallback(name, before, after) {
      if (
        name === 'token' &&
        before !== null &&
        before !== after &&
        this.failed &&
        this.failed.kind === 'expired' &&
        !this.closed
      )
        this.start();
    }

    get tokenProvider() {
      return this.provider;
    }

    /** Set before or after a token was refused: an element waiting on an expired token asks at once. */
    set tokenProvider(fn) {
      this.provider = fn;
      if (typeof fn === 'function' && this.failed && this.failed.kind === 'expired' && !this.closed) {
        Promise.resolve(fn()).then(
          (token) => this.setAttribute('token', token),
          (err) => console.warn(String(err)),
        );
      }
    }

    get labels() {
      const lang = (this.getAttribute('lang') || document.documentElement.lang || navigator.language || 'en')
        .slice(0, 2)
        .toLowerCase();
      return LABELS[lang] || LABELS.en;
    }

    connectedCallback() {
      this.closed = false;
      this.start();
    }

    disconnectedCallback() {
      this.closed = true;
      if (this.source) this.source.close();
    }

    get base() {
      return (this.getAttribute('api-base') || '').replace(/\/+$/, '');
    }

    async api(path, init = {}, refreshed = false) {
      const sid = encodeURIComponent(this.getAttribute('subscriber-id') || '');
      let res;
      try {
        res = await fetch(`${this.base}/v1/inbox/${sid}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${this.getAttribute('token')}`, 'content-type': 'application/json' },
        });
      } catch {
        // The browser hides why (a refused CORS origin, a wrong api-base, notifyd down): say all three.
        throw new InboxError(
          'unreachable',
          `Cannot reach notifyd at ${this.base || '(api-base is not set)'}. If the browser console shows a CORS error, add ${location.origin} to CORS_ORIGINS on the notifyd server (notifyd logs the refused origin); otherwise check api-base and that notifyd is running.`,
        );
      }
      if (res.status === 401) {
        if (!refreshed && typeof this.tokenProvider === 'function') {
          this.setAttribute('token', await this.tokenProvider());
          return this.api(path, init, true);
        }
        this.dispatchEvent(new CustomEvent('notifyd-inbox:token-expired'));
        throw new InboxError(
          'expired',
          'The subscriber token was refused (expired or revoked): set tokenProvider, or a new token attribute.',
        );
      }
      if (!res.ok) throw new InboxError('http', `notifyd inbox: HTTP ${res.status} on ${path}`);
      this.showError(null);
      return res.json();
    }

    /** Shows a failure on the bell ("!") and in the panel, or clears it (null). */
    showError(err) {
      this.failed = err;
      if (!err) {
        if (!this.errorBox.hidden) {
          this.errorBox.hidden = true;
          this.badge.title = '';
          this.render();
        }
        return;
      }
      const l = this.labels;
      this.errorBox.innerHTML = '';
      this.errorBox.append(err.kind === 'expired' ? l.expired : l.unreachable);
      const detail = document.createElement('small');
      detail.textContent = err.message;
      this.errorBox.append(detail);
      this.errorBox.hidden = false;
      this.badge.textContent = '!';
      this.badge.title = err.message;
      this.badge.hidden = false;
      this.render();
      this.dispatchEvent(new CustomEvent('notifyd-inbox:error', { detail: { kind: err.kind, message: err.message } }));
    }

    async start() {
      try {
        await this.reload();
        await this.connect();
      } catch (err) {
        this.reconnectLater(err);
      }
    }

    /** The first page and the counts, from scratch (start, resync). */
    async reload() {
      const [page, counts] = await Promise.all([this.api('?limit=30'), this.api('/unread-count')]);
      this.items = page.items;
      this.loaded = true;
      this.render();
      this.showCounts(counts);
    }

    async connect() {
      if (this.closed) return;
      const { ticket } = await this.api('/stream-ticket', { method: 'POST', body: '{}' });
      const sid = encodeURIComponent(this.getAttribute('subscriber-id') || '');
      const resume = this.lastEventId ? `&last_event_id=${encodeURIComponent(this.lastEventId)}` : '';
      const source = new EventSource(
        `${this.base}/v1/inbox/${sid}/stream?ticket=${encodeURIComponent(ticket)}${resume}`,
      );
      this.source = source;
      const on = (type, fn) =>
        source.addEventListener(type, (e) => {
          if (e.lastEventId) this.lastEventId = e.lastEventId;
          fn(JSON.parse(e.data));
        });
      on('message.created', ({ message }) => {
        if (!this.items.some((m) => m.id === message.id)) this.items.unshift(message);
        this.render();
        this.dispatchEvent(new CustomEvent('notifyd-inbox:message', { detail: { message } }));
      });
      on('message.updated', ({ message }) => {
        const hidden = message.is_archived || (message.snoozed_until && new Date(message.snoozed_until) > new Date());
        this.items = this.items.filter((m) => m.id !== message.id);
        if (!hidden) this.items.push(message);
        this.items.sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
        this.render();
      });
      const bulk =
        (apply) =>
        ({ topic }) => {
          for (const m of this.items) if (!topic || m.topic === topic) apply(m);
          this.items = this.items.filter((m) => !m.is_archived);
          this.render();
        };
      on(
        'messages.read',
        bulk((m) => Object.assign(m, { is_read: true, is_seen: true })),
      );
      on(
        'messages.seen',
        bulk((m) => Object.assign(m, { is_seen: true })),
      );
      on(
        'messages.archived',
        bulk((m) => Object.assign(m, { is_archived: true })),
      );
      on('counts', (counts) => this.showCounts(counts));
      on('resync', () => this.reload());
      source.addEventListener('open', () => (this.retry = 1000));
      // Tickets are single use: the browser's own reconnect would be refused, so reconnect here
      // with a new ticket, from the last event id seen.
      source.addEventListener('error', () => {
        source.close();
        if (this.source === source) this.reconnectLater();
      });
    }

    reconnectLater(err) {
      if (this.closed) return;
      if (err) console.warn(String(err));
      if (err instanceof InboxError) this.showError(err);
      // An expired token without a provider waits for a new token attribute, not a timer.
      if (err instanceof InboxError && err.kind === 'expired') return;
      // Nothing was loaded yet: retry from scratch (the list and counts), not only the stream.
      if (!this.loaded) {
        const wait = this.retry;
        this.retry = Math.min(this.retry * 2, 30000);
        setTimeout(() => this.start(), wait);
        return;
      }
      const wait = this.retry;
      this.retry = Math.min(this.retry * 2, 30000);
      setTimeout(() => this.connect().catch((e) => this.reconnectLater(e)), wait);
    }

    showCounts(counts) {
      this.badge.textContent = counts.unread_count > 99 ? '99+' : String(counts.unread_count);
      this.badge.hidden = counts.unread_count === 0;
      this.dispatchEvent(new CustomEvent('notifyd-inbox:counts', { detail: counts }));
    }

    toggle() {
      this.panel.hidden = !this.panel.hidden;
      if (!this.panel.hidden && this.items.some((m) => !m.is_seen))
        this.api('/seen-all', { method: 'POST', body: '{}' }).catch(() => {});
      if (!this.panel.hidden) this.loadPreferencesLink();
    }

    /**
     * The "Preferences" link: a signed link to the subscriber's hosted preference page, asked for
     * when the panel opens (a real link, so no popup blocker stands in the way). A server without
     * it, or a failure, leaves the link hidden: the inbox works without it.
     */
    async loadPreferencesLink() {
      try {
        const { page_url } = await this.api('/preferences');
        this.preferencesLink.href = new URL(page_url, this.base ? `${this.base}/` : location.href).href;
        this.preferencesLink.hidden = false;
      } catch {
        this.preferencesLink.hidden = true;
      }
    }

    async open(id) {
      const message = this.items.find((m) => m.id === id);
      if (message && !message.is_read)
        await this.api(`/${id}`, { method: 'PATCH', body: JSON.stringify({ read: true }) });
      if (message && message.url && /^https?:/.test(message.url)) window.location.assign(message.url);
    }

    render() {
      const esc = (s) =>
        String(s ?? '').replace(
          /[&<>"']/g,
          (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
        );
      this.list.innerHTML = this.items.length
        ? this.items
            .map(
              (m) => `<li part="item" data-id="${esc(m.id)}" data-read="${m.is_read}">
                ${m.title ? `<div class="title">${esc(m.title)}</div>` : ''}<div class="body">${esc(m.body)}</div>
                <time datetime="${esc(m.created_at)}">${esc(new Date(m.created_at).toLocaleString())}</time></li>`,
            )
            .join('')
        : this.failed
          ? ''
          : `<li class="empty" part="empty">${this.labels.empty}</li>`;
    }
  }

  customElements.define('notifyd-inbox', NotifydInbox);
})();

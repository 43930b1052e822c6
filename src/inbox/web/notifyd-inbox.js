/*
 * <notifyd-inbox>: notifyd's embeddable in-app inbox, a framework-free web component.
 *
 *   <script src="https://notifyd.example.com/inbox/notifyd-inbox.js" defer></script>
 *   <notifyd-inbox api-base="https://notifyd.example.com" subscriber-id="user_123"
 *                  token="<subscriber token from your backend>"></notifyd-inbox>
 *
 * A bell with the unread badge; the list opens on click (and marks everything seen); clicking a
 * message marks it read and follows its link; "Mark all read". Live over Server-Sent Events
 * with single-use tickets: on a dropped stream it takes a new ticket and resumes from the last
 * event id, so nothing is missed and every tab shows the same counts. The host page's origin
 * must be in notifyd's CORS_ORIGINS. Emits `notifyd-inbox:counts` ({unread_count, unseen_count})
 * and `notifyd-inbox:message` ({message}) on the element.
 */
(() => {
  if (customElements.get('notifyd-inbox')) return;

  const STYLE = `
    :host { position: relative; display: inline-block; font: 14px/1.4 system-ui, sans-serif; color: #1f2328; }
    button { font: inherit; cursor: pointer; }
    [part=bell] { position: relative; border: 0; background: none; font-size: 20px; padding: 4px 8px; }
    [part=badge] { position: absolute; top: -2px; right: -2px; min-width: 18px; padding: 0 4px; border-radius: 9px;
      background: #d1242f; color: #fff; font-size: 11px; line-height: 18px; text-align: center; }
    [part=badge][hidden] { display: none; }
    [part=panel] { position: absolute; right: 0; z-index: 1000; width: 340px; max-height: 420px; overflow: auto;
      background: #fff; border: 1px solid #d0d7de; border-radius: 8px; box-shadow: 0 8px 24px rgba(0,0,0,.12); }
    [part=panel][hidden] { display: none; }
    header { display: flex; justify-content: space-between; align-items: center; padding: 8px 12px; border-bottom: 1px solid #d0d7de; }
    header button { border: 0; background: none; color: #0969da; }
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
      root.innerHTML = `<style>${STYLE}</style>
        <button part="bell" aria-label="Notifications">🔔<span part="badge" hidden>0</span></button>
        <div part="panel" hidden role="dialog" aria-label="Notifications">
          <header><strong>Notifications</strong><button part="mark-all" type="button">Mark all read</button></header>
          <ul part="list"></ul>
        </div>`;
      this.badge = root.querySelector('[part=badge]');
      this.panel = root.querySelector('[part=panel]');
      this.list = root.querySelector('[part=list]');
      root.querySelector('[part=bell]').addEventListener('click', () => this.toggle());
      root.querySelector('[part=mark-all]').addEventListener('click', () => this.api('/read-all', { method: 'POST', body: '{}' }));
      this.list.addEventListener('click', (e) => {
        const li = e.target.closest('li[data-id]');
        if (li) this.open(li.dataset.id);
      });
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

    async api(path, init = {}) {
      const sid = encodeURIComponent(this.getAttribute('subscriber-id') || '');
      const res = await fetch(`${this.base}/v1/inbox/${sid}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${this.getAttribute('token')}`, 'content-type': 'application/json' },
      });
      if (!res.ok) throw new Error(`notifyd inbox: HTTP ${res.status} on ${path}`);
      return res.json();
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
      this.render();
      this.showCounts(counts);
    }

    async connect() {
      if (this.closed) return;
      const { ticket } = await this.api('/stream-ticket', { method: 'POST', body: '{}' });
      const sid = encodeURIComponent(this.getAttribute('subscriber-id') || '');
      const resume = this.lastEventId ? `&last_event_id=${encodeURIComponent(this.lastEventId)}` : '';
      const source = new EventSource(`${this.base}/v1/inbox/${sid}/stream?ticket=${encodeURIComponent(ticket)}${resume}`);
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
      const bulk = (apply) => ({ topic }) => {
        for (const m of this.items) if (!topic || m.topic === topic) apply(m);
        this.items = this.items.filter((m) => !m.is_archived);
        this.render();
      };
      on('messages.read', bulk((m) => Object.assign(m, { is_read: true, is_seen: true })));
      on('messages.seen', bulk((m) => Object.assign(m, { is_seen: true })));
      on('messages.archived', bulk((m) => Object.assign(m, { is_archived: true })));
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
      if (!this.panel.hidden && this.items.some((m) => !m.is_seen)) this.api('/seen-all', { method: 'POST', body: '{}' }).catch(() => {});
    }

    async open(id) {
      const message = this.items.find((m) => m.id === id);
      if (message && !message.is_read) await this.api(`/${id}`, { method: 'PATCH', body: JSON.stringify({ read: true }) });
      if (message && message.url && /^https?:/.test(message.url)) window.location.assign(message.url);
    }

    render() {
      const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
      this.list.innerHTML = this.items.length
        ? this.items
            .map(
              (m) => `<li part="item" data-id="${esc(m.id)}" data-read="${m.is_read}">
                ${m.title ? `<div class="title">${esc(m.title)}</div>` : ''}<div class="body">${esc(m.body)}</div>
                <time datetime="${esc(m.created_at)}">${esc(new Date(m.created_at).toLocaleString())}</time></li>`,
            )
            .join('')
        : '<li class="empty" part="empty">No notifications</li>';
    }
  }

  customElements.define('notifyd-inbox', NotifydInbox);
})();

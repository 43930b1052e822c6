import { useEffect } from 'preact/hooks';

/**
 * The console's one admin event stream (GET /v1/admin/events, Server-Sent Events, the session
 * cookie sent as on every same-origin request): opened when the first page listens, closed when
 * the last one stops. Events only say what to reload (`lanes`, `digest`); the pages read the API.
 */
const listeners = new Map();
let source = null;

function open() {
  source = new EventSource('/v1/admin/events');
  for (const name of ['lanes', 'digest'])
    source.addEventListener(name, () => listeners.get(name)?.forEach((fn) => fn()));
}

function listen(name, fn) {
  if (!listeners.has(name)) listeners.set(name, new Set());
  listeners.get(name).add(fn);
  if (!source) open();
  return () => {
    listeners.get(name).delete(fn);
    if ([...listeners.values()].every((set) => set.size === 0)) {
      source?.close();
      source = null;
    }
  };
}

/**
 * Calls `reload` whenever the stream says `name` changed, while the page is shown, at most once
 * per `minGapMs` (a later change inside the gap is read at its end, not lost).
 */
export function useLive(name, reload, minGapMs = 0) {
  useEffect(() => {
    let last = 0;
    let timer = null;
    const run = () => {
      timer = null;
      last = Date.now();
      void reload();
    };
    const off = listen(name, () => {
      if (timer) return;
      const wait = last + minGapMs - Date.now();
      if (wait <= 0) run();
      else timer = setTimeout(run, wait);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [name, reload, minGapMs]);
}

import { useCallback, useEffect, useState } from 'preact/hooks';

/**
 * Loads with `load()` now and every `everyMs` (if given) while the page is shown; `reload()`
 * after a change. Errors are kept for the page to show; the last good data stays on screen.
 */
export function useLoad(load, deps, everyMs) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const reload = useCallback(async () => {
    try {
      const data = await load();
      setState({ data, error: null, loading: false });
    } catch (error) {
      setState((prev) => ({ data: prev.data, error, loading: false }));
    }
  }, deps);
  useEffect(() => {
    void reload();
    if (!everyMs) return undefined;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, everyMs);
    return () => clearInterval(timer);
  }, [reload]);
  return { ...state, reload };
}

import { useEffect } from 'react';

/** How often a page asks again about work the server is still doing. */
export const REFRESH_WHILE_MS = 2_000;

/**
 * Reloads every REFRESH_WHILE_MS while `active` and the tab is visible: for server work that no
 * live change announces (a search-analytics sync), so the page shows its result without a reload.
 */
export function useRefreshWhile(active: boolean, reload: () => Promise<void>): void {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => { if (document.visibilityState === 'visible') void reload(); }, REFRESH_WHILE_MS);
    return () => clearInterval(timer);
  }, [active, reload]);
}

import { useEffect } from 'react';

/** The first wait before a page asks again about work the server is still doing, and the longest. */
const FIRST_WAIT_MS = 2_000;
const LONGEST_WAIT_MS = 15_000;

/**
 * Reloads while `active` and the tab is visible, for server work that no live change announces (a
 * search-analytics sync), so the page shows its result without a reload. It asks after 2 s, then
 * half as long again each time up to 15 s, and never while the last reload is still under way: a
 * long sync in several tabs must not spend the member's rate limit.
 */
export function useRefreshWhile(active: boolean, reload: () => Promise<void>): void {
  useEffect(() => {
    if (!active) return;
    let wait = FIRST_WAIT_MS;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      if (document.visibilityState === 'visible') await reload().catch(() => undefined);
      if (stopped) return;
      wait = Math.min(LONGEST_WAIT_MS, Math.round(wait * 1.5));
      timer = setTimeout(tick, wait);
    };
    timer = setTimeout(tick, wait);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [active, reload]);
}

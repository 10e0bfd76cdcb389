import { createElement, lazy, useState, type ComponentType } from 'react';
import { matchPath } from '../navigation.ts';

/** The chunks of the page the tab opened at, fetched as the app starts (see lazyPage). */
const openingChunks: Promise<unknown>[] = [];

/**
 * Resolves once the chunk of the page the tab opened at has loaded (or failed: the page's own
 * Suspense then shows the failure). The app waits for it beside the session check, so that page's
 * first render does not suspend: React holds a Suspense boundary's content back for up to 300 ms
 * after its fallback showed.
 */
export const openingPageReady = (): Promise<unknown> => Promise.all(openingChunks);

/**
 * A page loaded lazily with its heavy libraries (React `lazy`). When the browser opens at the
 * page's own address, its chunk is fetched at once, beside the session check, instead of after it,
 * and so is its first data if the page names a `prefetch` (given the address's parameters); a
 * prefetch that returns a promise holds the page's first render until it settles too. A page
 * whose chunk is already in renders it directly; otherwise it suspends until the chunk arrives.
 */
export function lazyPage<P extends object>(
  pattern: string,
  load: () => Promise<{ default: ComponentType<P> }>,
  prefetch?: (params: Record<string, string>) => Promise<unknown> | undefined,
) {
  let loaded: ComponentType<P> | null = null;
  const loadModule = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(loadModule) as unknown as ComponentType<P>;
  const params = matchPath(pattern, window.location.pathname);
  if (params) {
    openingChunks.push(loadModule().catch(() => undefined));
    const first = prefetch?.(params);
    if (first) openingChunks.push(first);
  }
  return function LazyPage(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the module's component would remount the page.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(Component, props);
  };
}

import { lazy, type ComponentType } from 'react';
import { matchPath } from '../navigation.ts';

/**
 * A page loaded lazily with its heavy libraries (React `lazy`). When the browser opens at the
 * page's own address, its chunk is fetched at once, beside the session check, instead of after it.
 */
export function lazyPage<P extends object>(pattern: string, load: () => Promise<{ default: ComponentType<P> }>) {
  if (matchPath(pattern, window.location.pathname)) void load().catch(() => undefined);
  return lazy(load);
}

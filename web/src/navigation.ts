import { useEffect, useState } from 'react';

/** A small history-based router: the server serves index.html at each page path (src/features/application WEB_PAGES). */
export function navigate(to: string): void {
  window.history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function usePath(): string {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const update = () => setPath(window.location.pathname);
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return path;
}

/** `/projects/:projectId/brand` against a path: its parameters, or null when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.replace(/\/+$/, '').split('/');
  if (pattern === '/' ? path !== '/' : want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(got[i]);
    else if (want[i] !== got[i]) return null;
  }
  return params;
}

/** A pattern with its parameters filled in: `pathTo('/projects/:projectId', { projectId })`. */
export const pathTo = (pattern: string, params: Record<string, string>): string =>
  pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

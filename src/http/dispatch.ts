import type { HttpMethod, Route } from './route.ts';

export type Dispatched<R = Route> = { route: R; params: Record<string, string> };

/** What the dispatcher needs of a route: the API's routes and the application's own both have it. */
type Routable = { method: HttpMethod; path: string };

type Candidate<R> = { route: R; pattern: RegExp; names: string[] };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/projects/:id/topics` → /^\/projects\/([^/]+)\/topics\/?$/i, as express matches it (any case, optional trailing slash). */
function compile<R extends Routable>(route: R): Candidate<R> {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return escapeRegExp(segment);
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('\\/');
  return { route, names, pattern: new RegExp(`^${source === '' ? '' : source}\\/?$`, 'i') };
}

function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * Finds the route of a request. Express tries every route in turn; here routes are grouped by
 * method and first path segment, so a request tests the few that could match.
 * Throws URIError for a parameter that is not valid percent-encoding.
 */
export type Dispatcher = ReturnType<typeof createDispatcher>;

export function createDispatcher<R extends Routable = Route>(routes: readonly R[]) {
  const buckets = new Map<string, Candidate<R>[]>();
  for (const route of routes) {
    const key = `${route.method} ${firstSegment(route.path)}`;
    const bucket = buckets.get(key) ?? [];
    bucket.push(compile(route));
    buckets.set(key, bucket);
  }
  return {
    endpoints: routes.map((route) => ({ method: route.method, path: route.path })),
    match(method: string, path: string): Dispatched<R> | null {
      const lower = method.toLowerCase();
      const verb = (lower === 'head' ? 'get' : lower) as HttpMethod;
      for (const candidate of buckets.get(`${verb} ${firstSegment(path)}`) ?? []) {
        const found = candidate.pattern.exec(path);
        if (!found) continue;
        const params: Record<string, string> = {};
        for (let index = 0; index < candidate.names.length; index++) {
          const value = found[index + 1];
          params[candidate.names[index]] = value.includes('%') ? decodeURIComponent(value) : value;
        }
        return { route: candidate.route, params };
      }
      return null;
    },
  };
}

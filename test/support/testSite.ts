/**
 * A small company website served on 127.0.0.1 for crawl, brand and end-to-end tests.
 *
 *   const site = await startTestSite();                 // the default site below
 *   const site = await startTestSite({ pages: { '/about': null, '/new': page('<h1>New</h1>') } });
 *   const site = await startTestSite({ pages: { '/robots.txt': 'User-agent: *\nDisallow: /' } });
 *   ...crawlSite({ websiteUrl: site.origin }, createSafeHttpClient({ allowPrivateAddresses: true }))
 *   await site.close();
 *
 * The default site is "Crumb & Co.", ordering software for bakeries. What a test can rely on:
 * - founded in 2011 in Portland (on /about), a team of 40, 500+ bakeries, a testimonial on /;
 * - theme-color #1B998B; /assets/site.css defines --primary #E4572E, --accent #F3A712,
 *   --background #FFFDF8, --text #2B2D42;
 * - robots.txt disallows /private/ for every agent; /private/staff-handbook is linked and in the sitemap;
 * - pages: /, /about, /products/online-ordering, /products/inventory, /blog and three posts under /blog/.
 * Bodies may contain `{{origin}}`, replaced by the server's origin when served.
 */
import type http from 'node:http';
import { startHttpServer } from './httpServer.ts';
import { defaultSitePages } from './testSitePages.ts';

export type TestPage = {
  body: string | Buffer;
  /** Default 200. */
  status?: number;
  /** Default: by extension (.xml, .css, .txt, .json), otherwise text/html; charset=utf-8. */
  contentType?: string;
  headers?: Record<string, string>;
};
/** A page, a body (status 200, type by extension), or a raw handler (e.g. one that never answers). */
export type TestRoute =
  | TestPage
  | string
  | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export type TestSiteOptions = {
  /** Routes by path (with query, as requested). They override the defaults; `null` removes a default route. */
  pages?: Record<string, TestRoute | null>;
  /** Start from an empty site instead of the default one. */
  replaceDefaults?: boolean;
};

export type TestSite = {
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  port: number;
  url(path: string): string;
  /** Every request received, in order. */
  requests: Array<{ method: string; path: string; userAgent?: string }>;
  requested(path: string): boolean;
  connectionCount(): number;
  close(): Promise<void>;
};

const typeByExtension: Array<[RegExp, string]> = [
  [/\.xml(?:\?|$)/, 'application/xml; charset=utf-8'],
  [/\.css(?:\?|$)/, 'text/css; charset=utf-8'],
  [/\.txt(?:\?|$)/, 'text/plain; charset=utf-8'],
  [/\.json(?:\?|$)/, 'application/json'],
];

/** An HTML document with a title and body, for quick custom pages. */
export const page = (body: string, title = 'Test page') =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`;

export async function startTestSite(options: TestSiteOptions = {}): Promise<TestSite> {
  const routes: Record<string, TestRoute | null> = {
    ...(options.replaceDefaults ? {} : defaultSitePages),
    ...options.pages,
  };
  const requests: TestSite['requests'] = [];
  let origin = '';
  const server = await startHttpServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, userAgent: req.headers['user-agent'] });
    const route = routes[path];
    if (typeof route === 'function') return route(req, res);
    const found: TestPage =
      route == null
        ? {
            status: 404,
            body: page('<h1>Not found</h1><p>There is nothing here.</p>', 'Not found'),
          }
        : typeof route === 'string'
          ? { body: route }
          : route;
    const contentType =
      found.contentType ??
      typeByExtension.find(([pattern]) => pattern.test(path))?.[1] ??
      'text/html; charset=utf-8';
    const body =
      typeof found.body === 'string' ? found.body.replaceAll('{{origin}}', origin) : found.body;
    res.writeHead(found.status ?? 200, { 'content-type': contentType, ...found.headers });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  origin = server.origin;
  return {
    origin,
    port: server.port,
    url: (path) => new URL(path, origin).href,
    requests,
    requested: (path) => requests.some((request) => request.path === path),
    connectionCount: server.connectionCount,
    close: server.close,
  };
}

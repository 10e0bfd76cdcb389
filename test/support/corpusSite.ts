/**
 * A generated site of many pages for the corpus crawl, its tests and its bench:
 *
 *   const site = await startCorpusSite({ pages: 300 });
 *   site.change([5, 9]);           // those pages get a new text, ETag, Last-Modified and lastmod
 *   site.log                       // every request: path, status
 *
 * Page i lives at /posts/post-i, says "Post i is about <subject i>" (a subject and a town), links to the next three
 * posts, and is listed by a sitemap index → two gzipped sitemaps with lastmod. Answers carry an
 * ETag and a Last-Modified and honour If-None-Match / If-Modified-Since with 304.
 */
import { gzipSync } from 'node:zlib';
import type http from 'node:http';
import { startHttpServer } from './httpServer.ts';

export type CorpusSiteOptions = {
  pages: number;
  /** Each page answers after this long (default 0). */
  delayMs?: number;
  /** robots.txt body (default: allow all, naming the sitemap index). */
  robots?: string;
  /** Links between pages (default true); without, only the sitemap finds them. */
  links?: boolean;
  /** Extra routes by path, served before the generated ones. */
  routes?: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>;
};

export type CorpusSite = {
  origin: string;
  log: Array<{ path: string; status: number }>;
  /** Paths answered with 200, counted. */
  fullGets(): Map<string, number>;
  change(indexes: readonly number[]): void;
  subjectOf(index: number): string;
  close(): Promise<void>;
};

const SUBJECTS = [
  'sourdough starters',
  'oven temperatures',
  'rye flour',
  'croissant lamination',
  'bread scoring',
  'proofing baskets',
  'gluten development',
  'steam injection',
];

/** With SUBJECTS, unique subjects for the first 80 pages. */
const TOWNS = [
  'Leeds',
  'Bristol',
  'Hull',
  'York',
  'Derby',
  'Bath',
  'Ely',
  'Wells',
  'Ripon',
  'Truro',
];

export async function startCorpusSite(options: CorpusSiteOptions): Promise<CorpusSite> {
  const version = new Array<number>(options.pages).fill(1);
  const baseTime = Date.parse('2026-01-01T00:00:00Z');
  const log: CorpusSite['log'] = [];
  const subjectOf = (i: number) =>
    `${SUBJECTS[i % SUBJECTS.length]} in ${TOWNS[Math.floor(i / SUBJECTS.length) % TOWNS.length]} number ${i}`;
  const lastModified = (i: number) => new Date(baseTime + version[i] * 86_400_000).toUTCString();
  const lastmod = (i: number) => new Date(baseTime + version[i] * 86_400_000).toISOString();
  const pageHtml = (i: number) => {
    const links =
      options.links === false
        ? ''
        : [1, 2, 3]
            .map((step) => i + step)
            .filter((j) => j < options.pages)
            .map((j) => `<a href="/posts/post-${j}">Post ${j}</a>`)
            .join(' ');
    return `<!doctype html><html lang="en"><head><title>Post ${i}</title></head><body><main><h1>Post ${i}: ${subjectOf(i)}</h1><p>Post ${i} is about ${subjectOf(i)}, revision ${version[i]}.${version[i] > 1 ? ' Updated edition.' : ''} Bakers ask about it every week.</p><p>${links}</p></main></body></html>`;
  };
  const half = Math.ceil(options.pages / 2);
  const urlset = (from: number, to: number, origin: string) =>
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from(
      { length: Math.max(0, to - from) },
      (_, k) =>
        `<url><loc>${origin}/posts/post-${from + k}</loc><lastmod>${lastmod(from + k)}</lastmod></url>`,
    ).join('')}</urlset>`;
  let origin = '';
  const send = (
    res: http.ServerResponse,
    path: string,
    status: number,
    headers: Record<string, string>,
    body?: string | Buffer,
  ) => {
    log.push({ path, status });
    res.writeHead(status, headers);
    res.end(body);
  };
  const server = await startHttpServer((req, res) => {
    const path = req.url ?? '/';
    const extra = options.routes?.[path];
    if (extra) {
      log.push({ path, status: 0 });
      return extra(req, res);
    }
    if (path === '/robots.txt')
      return send(
        res,
        path,
        200,
        { 'content-type': 'text/plain' },
        options.robots ?? `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap-index.xml\n`,
      );
    if (path === '/sitemap-index.xml')
      return send(
        res,
        path,
        200,
        { 'content-type': 'application/xml' },
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemaps/one.xml.gz</loc></sitemap><sitemap><loc>${origin}/sitemaps/two.xml.gz</loc></sitemap></sitemapindex>`,
      );
    if (path === '/sitemaps/one.xml.gz')
      return send(
        res,
        path,
        200,
        { 'content-type': 'application/gzip' },
        gzipSync(urlset(0, half, origin)),
      );
    if (path === '/sitemaps/two.xml.gz')
      return send(
        res,
        path,
        200,
        { 'content-type': 'application/gzip' },
        gzipSync(urlset(half, options.pages, origin)),
      );
    if (path === '/')
      return send(
        res,
        path,
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        `<!doctype html><html><head><title>Home</title></head><body><main><h1>Bakery notes</h1><p>Welcome.</p><a href="/posts/post-0">First post</a></main></body></html>`,
      );
    const match = /^\/posts\/post-(\d+)$/.exec(path);
    const i = match ? Number(match[1]) : -1;
    if (i < 0 || i >= options.pages)
      return send(res, path, 404, { 'content-type': 'text/plain' }, 'not found');
    const answer = () => {
      const etag = `"p${i}-v${version[i]}"`;
      if (
        req.headers['if-none-match'] === etag ||
        req.headers['if-modified-since'] === lastModified(i)
      )
        return send(res, path, 304, { etag, 'last-modified': lastModified(i) });
      send(
        res,
        path,
        200,
        { 'content-type': 'text/html; charset=utf-8', etag, 'last-modified': lastModified(i) },
        pageHtml(i),
      );
    };
    if (options.delayMs) setTimeout(answer, options.delayMs);
    else answer();
  });
  origin = server.origin;
  return {
    origin,
    log,
    fullGets() {
      const counts = new Map<string, number>();
      for (const entry of log)
        if (entry.status === 200 && entry.path.startsWith('/posts/'))
          counts.set(entry.path, (counts.get(entry.path) ?? 0) + 1);
      return counts;
    },
    change(indexes) {
      for (const i of indexes) version[i] += 1;
    },
    subjectOf,
    close: server.close,
  };
}

import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

// The page runs only its own scripts and styles and talks only to this origin; nothing may frame it.
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

type File = { body: Buffer; type: string } | null;

/**
 * Markup for one request's page, put right after the app's `<div id="root"></div>`: a promise of it
 * (null for the plain page) when the path is one the hook renders, null when it is not.
 */
export type Prerender = (
  req: IncomingMessage,
  path: string,
  query: URLSearchParams,
) => Promise<string | null> | null;
const ROOT = '<div id="root"></div>';

/**
 * Serves the built web app (web/dist): files under /assets/ carry a content hash in their names,
 * so they are cached for a year and never revalidated; the application's page paths get
 * index.html, revalidated each time so a new build is picked up. Anything else is left to the
 * next handler (true when answered). A page path may name parameters (`/projects/:projectId`): one
 * segment of letters, digits, `_` and `-` each. Files are read once and kept: the build is small.
 */
export function createWebApp(distDir: string, pagePaths: readonly string[], prerender?: Prerender) {
  const files = new Map<string, File>();
  const isPage = pageMatcher(pagePaths);
  // Only files found are kept: a miss is not remembered, so a stranger asking for endless unknown
  // asset names grows nothing (the build's files are few).
  const read = (relative: string): File => {
    const known = files.get(relative);
    if (known) return known;
    let file: File = null;
    try {
      file = {
        body: readFileSync(join(distDir, relative)),
        type: TYPES[extname(relative)] ?? 'application/octet-stream',
      };
    } catch {
      file = null;
    }
    if (file) files.set(relative, file);
    return file;
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const [path, query = ''] = (req.url ?? '/').split(/\?(.*)/s, 2);
    let relative: string | null = null;
    let immutable = false;
    if (isPage(path)) relative = 'index.html';
    // The icon: the page links /favicon.svg; browsers and tools that ask for /favicon.ico get it too.
    else if (path === '/favicon.svg' || path === '/favicon.ico') relative = 'favicon.svg';
    else if (path.startsWith('/assets/') && /^[\w./-]+$/.test(path)) {
      const candidate = normalize(path.slice(1));
      if (candidate.startsWith(`assets${sep}`)) {
        relative = candidate;
        immutable = true;
      }
    }
    const file = relative && read(relative);
    if (!file) return false;
    const pending =
      relative === 'index.html' ? prerender?.(req, path, new URLSearchParams(query)) : null;
    if (!pending) {
      send(req, res, file, immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      return true;
    }
    void pending
      .catch(() => null)
      .then((markup) => {
        const page = file.body.toString('utf8');
        if (!markup || !page.includes(ROOT)) return send(req, res, file, 'no-cache');
        // Content only this member may read: no cache keeps it, and none serves it for another cookie.
        res.setHeader('Vary', 'Cookie');
        send(
          req,
          res,
          { ...file, body: Buffer.from(page.replace(ROOT, () => `${ROOT}${markup}`)) },
          'no-store',
        );
      });
    return true;
  };
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  file: NonNullable<File>,
  cacheControl: string,
): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', file.type);
  res.setHeader('Content-Length', file.body.length);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', cacheControl);
  if (!cacheControl.includes('immutable'))
    for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

function pageMatcher(patterns: readonly string[]): (path: string) => boolean {
  const expressions = patterns.map(
    (pattern) =>
      new RegExp(
        `^${pattern
          .split('/')
          .map((part) =>
            part.startsWith(':') ? '[A-Za-z0-9_-]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('/')}$`,
      ),
  );
  return (path) => expressions.some((expression) => expression.test(path));
}

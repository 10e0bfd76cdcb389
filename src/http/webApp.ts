import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.json': 'application/json',
};

// The page runs only its own scripts and styles and talks only to this origin; nothing may frame it.
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

type File = { body: Buffer; type: string } | null;

/**
 * Serves the built web app (web/dist): files under /assets/ carry a content hash in their names,
 * so they are cached for a year and never revalidated; the application's page paths get
 * index.html, revalidated each time so a new build is picked up. Anything else is left to the
 * next handler (true when answered). A page path may name parameters (`/projects/:projectId`): one
 * segment of letters, digits, `_` and `-` each. Files are read once and kept: the build is small.
 */
export function createWebApp(distDir: string, pagePaths: readonly string[]) {
  const files = new Map<string, File>();
  const isPage = pageMatcher(pagePaths);
  // Only files found are kept: a miss is not remembered, so a stranger asking for endless unknown
  // asset names grows nothing (the build's files are few).
  const read = (relative: string): File => {
    const known = files.get(relative);
    if (known) return known;
    let file: File = null;
    try { file = { body: readFileSync(join(distDir, relative)), type: TYPES[extname(relative)] ?? 'application/octet-stream' }; } catch { file = null; }
    if (file) files.set(relative, file);
    return file;
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = (req.url ?? '/').split('?')[0];
    let relative: string | null = null;
    let immutable = false;
    if (isPage(path)) relative = 'index.html';
    else if (path.startsWith('/assets/') && /^[\w./-]+$/.test(path)) {
      const candidate = normalize(path.slice(1));
      if (candidate.startsWith(`assets${sep}`)) { relative = candidate; immutable = true; }
    }
    const file = relative && read(relative);
    if (!file) return false;
    res.statusCode = 200;
    res.setHeader('Content-Type', file.type);
    res.setHeader('Content-Length', file.body.length);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (!immutable) for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
    res.end(req.method === 'HEAD' ? undefined : file.body);
    return true;
  };
}

function pageMatcher(patterns: readonly string[]): (path: string) => boolean {
  const expressions = patterns.map((pattern) => new RegExp(`^${pattern.split('/').map((part) => (part.startsWith(':') ? '[A-Za-z0-9_-]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`));
  return (path) => expressions.some((expression) => expression.test(path));
}

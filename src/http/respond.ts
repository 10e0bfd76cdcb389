import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteResult } from './route.ts';

/** Writes a handler's result. */
export function send(req: IncomingMessage, res: ServerResponse, result: RouteResult): void {
  if (result.headers) for (const name in result.headers) res.setHeader(name, result.headers[name]);
  if ('stream' in result) {
    res.statusCode = result.status;
    result.stream(res);
  } else if ('raw' in result) {
    if (result.status >= 200 && result.status < 300 && isFresh(req, result.headers?.ETag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = result.status;
    res.setHeader('Content-Type', result.contentType);
    res.setHeader('Content-Length', result.raw.length);
    res.end(result.raw);
  } else if ('json' in result) {
    sendJsonBytes(res, result.status, result.json);
  } else if (result.body === undefined) {
    res.statusCode = result.status;
    res.end();
  } else {
    sendJson(res, result.status, result.body);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendJsonBytes(res, status, Buffer.from(JSON.stringify(body)));
}

export function sendJsonBytes(res: ServerResponse, status: number, payload: Buffer): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', payload.length);
  res.end(payload);
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/**
 * As express's res.send judged it for files (covers): a GET or HEAD whose If-None-Match names the
 * response's ETag is answered 304 without the bytes. No response here has a Last-Modified, so an
 * If-Modified-Since makes it stale, and `Cache-Control: no-cache` asks for the bytes.
 */
function isFresh(req: IncomingMessage, etag: string | undefined): boolean {
  const noneMatch = req.headers['if-none-match'];
  if (!etag || !noneMatch || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  if (
    req.headers['if-modified-since'] ||
    /(?:^|,)\s*no-cache\s*(?:,|$)/.test(req.headers['cache-control'] ?? '')
  )
    return false;
  return (
    noneMatch.trim() === '*' || noneMatch.split(',').some((tag) => opaque(tag) === opaque(etag))
  );
}

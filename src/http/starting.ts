import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../core/errors.ts';
import type { IdGenerator } from '../core/ids.ts';
import type { Readiness } from './readiness.ts';
import { bodyPending } from './body.ts';
import { sendError } from './errors.ts';
import { sendJson } from './respond.ts';

/** Seconds a client is asked to wait before trying again while the stores connect. */
export const STARTING_RETRY_AFTER_S = 5;

/**
 * The request listener while the stores are still being reached at start (storeConnection.ts):
 * the process is alive (`/healthz` 200) but not ready (`/readyz` 503 saying what it waits for),
 * and every other request, the API's included, is 503 `unavailable` with Retry-After, its body
 * left unread. The server swaps in the application once the stores are open.
 */
export function createStartingListener(options: { readiness: () => Readiness; ids: IdGenerator }) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Request-Id', options.ids.next('req'));
    const probe = probeOf(req);
    if (probe === 'healthz') return sendJson(res, 200, { ok: true });
    if (probe === 'readyz') return sendJson(res, 503, options.readiness());
    if (bodyPending(req)) req.socket.pause();
    res.setHeader('Retry-After', String(STARTING_RETRY_AFTER_S));
    sendError(
      res,
      new AppError(
        'unavailable',
        `Inkstream is starting and cannot reach its stores yet; try again in ${STARTING_RETRY_AFTER_S} seconds.`,
      ),
    );
  };
}

/** A GET or HEAD of a health check, matched as the application's router matches it (any case, an optional trailing slash). */
function probeOf(req: IncomingMessage): 'healthz' | 'readyz' | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  let path: string;
  try {
    path = new URL(req.url ?? '/', 'http://localhost').pathname.toLowerCase().replace(/\/$/, ''); // origin or absolute form
  } catch {
    return null;
  }
  return path === '/healthz' || path === '/readyz' ? (path.slice(1) as 'healthz' | 'readyz') : null;
}

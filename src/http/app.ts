import express, { type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { AppError } from '../core/errors.ts';
import type { Services } from '../services.ts';
import type { AuthContext } from './auth.ts';
import { createAuthenticator } from './authCache.ts';
import { errorMiddleware, fieldIssues, sendError } from './errors.ts';
import { createDispatcher } from './dispatch.ts';
import { createIdempotency } from './idempotency.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { createRateLimit, type RateLimit } from './rateLimit.ts';
import { route, type Route, type RouteResult } from './route.ts';

export const API_PREFIX = '/api/v1';
export const MAX_BODY_BYTES = 1024 * 1024;

export type AppOptions = {
  routes: readonly Route[];
  rateLimit?: RateLimit;
  /** Liveness and readiness, outside /api/v1. */
  health: { ready(): Promise<{ ok: boolean; checks: Record<string, string> }> };
};

export function createApp(services: Services, options: AppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('etag', false);
  const rateLimit = options.rateLimit ?? createRateLimit(services.config.INKSTREAM_RATE_LIMIT_PER_MINUTE);
  const idempotent = createIdempotency(services.readStore, () => services.clock.nowMs());
  const authenticator = createAuthenticator(services.eventStore, services.readStore);
  /** The read models are known to have reached this position: a request at or below it need not wait. */
  let caughtUpThrough = -1n;

  app.use((req, res, next) => {
    const incoming = req.get('x-request-id');
    res.locals.requestId = incoming && /^[\w.-]{1,100}$/.test(incoming) ? incoming : services.ids.next('req');
    res.setHeader('X-Request-Id', res.locals.requestId);
    next();
  });

  app.get('/healthz', (_req, res) => { res.json({ ok: true }); });
  app.get('/readyz', async (_req, res) => {
    const readiness = await options.health.ready();
    res.status(readiness.ok ? 200 : 503).json(readiness);
  });

  const api = express.Router();
  api.use(requireJsonBody);
  api.use(express.json({
    limit: MAX_BODY_BYTES,
    type: ['application/json', 'application/*+json'],
    verify: (req, _res, buffer) => { (req as Request & { rawBody?: Buffer }).rawBody = Buffer.from(buffer); },
  }));

  // The index is an endpoint like the others (authenticated, rate limited) and lists itself.
  const indexRoute = route({
    method: 'get', path: '/', tag: 'Index', summary: 'This index: every endpoint of /api/v1 as an OpenAPI 3.1 document',
    responses: { 200: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }) },
    async handle() { return { status: 200, body: openApi }; },
  });
  const routes = [indexRoute, ...options.routes];
  const openApi = buildOpenApiDocument(routes, services.config.INKSTREAM_PUBLIC_URL);

  const dispatcher = createDispatcher(routes);
  const handlers = new Map(routes.map((definition) => [definition, handlerFor(definition)]));
  app.locals.endpoints = dispatcher.endpoints;
  api.use((req, res, next) => {
    let found;
    try {
      found = dispatcher.match(req.method, req.path);
    } catch {
      return next(new AppError('not_found', 'No such resource: the path is not valid percent-encoding.'));
    }
    if (!found) return next();
    req.params = found.params;
    return handlers.get(found.route)!(req, res, next);
  });
  api.use((req, res) => {
    sendError(res, new AppError('not_found', `No endpoint ${req.method} ${API_PREFIX}${req.path}; GET ${API_PREFIX} lists every endpoint.`), res.locals.requestId);
  });
  app.use(API_PREFIX, api);
  app.use((req, res) => {
    sendError(res, new AppError('not_found', `Nothing at ${req.path}; the API lives under ${API_PREFIX}.`), res.locals.requestId);
  });
  app.use(errorMiddleware((error, requestId) => services.logger.error({ err: error, requestId }, 'unexpected error')));
  return app;

  function handlerFor(route: Route): RequestHandler {
    return async (req, res, next) => {
      try {
        const requestId: string = res.locals.requestId;
        let auth: AuthContext | undefined;
        let consistency = { head: -1n, readModelsCurrent: false };
        if (route.auth !== 'none') {
          // The head is read first: the read models then reach at least it, so what the key cache
          // and cached responses were checked against is what a lookup sees.
          const head = await services.eventStore.headPosition();
          const readModelsCurrent = head <= caughtUpThrough || await services.readModels.catchUp(services.config.INKSTREAM_READ_WAIT_MS, head);
          if (readModelsCurrent && head > caughtUpThrough) caughtUpThrough = head;
          consistency = { head, readModelsCurrent };
          auth = await authenticator.authenticate(req.get('authorization'), consistency);
          await rateLimit.consume(auth.keyId, res);
        }
        const params = parse(route.params, req.params, 'params');
        const query = parse(route.query, req.query, 'query');
        const body = parse(route.body, req.body, 'body');
        const run = () => route.handle({ params, query, body, auth: auth!, services, requestId, request: req, consistency });
        const idempotencyKey = req.get('idempotency-key');
        if (route.method === 'post' && idempotencyKey !== undefined && auth) {
          const outcome = await idempotent(
            { accountId: auth.accountId, key: idempotencyKey, method: req.method, path: req.path, body: req.body },
            async () => toStored(await run()),
          );
          if (outcome.replayed) res.setHeader('Idempotent-Replayed', 'true');
          sendJson(res, outcome.status, outcome.body);
          return;
        }
        send(res, await run());
      } catch (error) {
        next(error);
      }
    };
  }
}

function parse(schema: z.ZodType | undefined, value: unknown, where: string): any {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!result.success) {
    if (where === 'params') throw new AppError('not_found', 'No such resource: the id in the path does not name one.');
    const details = fieldIssues(result.error, where);
    const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
    throw new AppError('validation_failed', `Invalid request ${where}: ${summary}`, { details });
  }
  return result.data;
}

function toStored(result: RouteResult): { status: number; body: unknown } {
  if ('raw' in result) throw new AppError('bad_request', 'Idempotency-Key is not supported on this endpoint.');
  if ('json' in result) return { status: result.status, body: JSON.parse(result.json.toString('utf8')) };
  return { status: result.status, body: result.body ?? null };
}

function send(res: Response, result: RouteResult): void {
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
  if ('raw' in result) {
    res.status(result.status).type(result.contentType).send(result.raw);
  } else if ('json' in result) {
    sendJsonBytes(res, result.status, result.json);
  } else if (result.body === undefined) {
    res.status(result.status).end();
  } else {
    sendJson(res, result.status, result.body);
  }
}

/** What res.json does, without its per-response content-type parsing and freshness checks: this is the hot path. */
function sendJson(res: Response, status: number, body: unknown): void {
  sendJsonBytes(res, status, Buffer.from(JSON.stringify(body)));
}

function sendJsonBytes(res: Response, status: number, payload: Buffer): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', payload.length);
  res.end(payload);
}

/** A request that carries a body must say it is JSON (415 otherwise); bodiless POSTs are fine. */
const requireJsonBody: RequestHandler = (req, res, next) => {
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (hasBody && !req.is(['application/json', 'application/*+json'])) {
    return sendError(res, new AppError('unsupported_media_type', 'Send the request body as JSON with "content-type: application/json".'), res.locals.requestId);
  }
  next();
};

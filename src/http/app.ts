import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { TLSSocket } from 'node:tls';
import express from 'express';
import { z } from 'zod';
import { AppError } from '../core/errors.ts';
import type { Platform } from '../platform.ts';
import {
  keyRefusalOf,
  presentedKey,
  requireWriteAccess,
  type AuthContext,
  type PresentedKey,
} from './auth.ts';
import { createAuthenticator } from './authCache.ts';
import { bodyPending, readJsonBody } from './body.ts';
import type { ConnectionCap } from './connectionCap.ts';
import { createConsistency, noConsistency, type Consistency } from './consistency.ts';
import { createDispatcher, type Dispatched, type Dispatcher } from './dispatch.ts';
import { fieldIssues, sendAnyError, sendError } from './errors.ts';
import { createIdempotency } from './idempotency.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { createRateLimit, type RateLimit } from './rateLimit.ts';
import { send, sendJson } from './respond.ts';
import { route, type ApiRequest, type HttpMethod, type Route, type RouteResult } from './route.ts';

export const API_PREFIX = '/api/v1';

export type AppOptions = {
  routes: readonly Route[];
  rateLimit?: RateLimit;
  /** The cap on connections per client address (connectionCap.ts); none in tests that build an app alone. */
  connections?: ConnectionCap;
  /** Liveness and readiness, outside /api/v1. */
  health: { ready(): Promise<{ ok: boolean }> };
  /**
   * What is served beside /api/v1 (the web application and its own endpoints): answers true when
   * it took the request. Runs after the connection cap, before the API.
   */
  beside?: (req: IncomingMessage, res: ServerResponse) => boolean;
};

/** The server's request listener; `endpoints` lists what it dispatches under /api/v1. */
export type App = ((req: IncomingMessage, res: ServerResponse) => void) & {
  readonly endpoints: Dispatcher['endpoints'];
};

const REQUEST_ID = /^[\w.-]{1,100}$/;

/**
 * The HTTP layer. Requests under /api/v1 go to one handler that finds the route with the API's
 * dispatcher (routes are declared once, with their zod schemas, for the index too) and answers
 * with node:http's own calls. Every other path is the express application's: health checks, the
 * 404, its error handler. API requests do not pass through express: its per-request set-up swaps
 * the prototypes of req and res, which de-optimises every later property access on them, and
 * that cost a POST about a fifth of its CPU (docs/http.md).
 */
export function createApp(platform: Platform, options: AppOptions): App {
  const rateLimit =
    options.rateLimit ?? createRateLimit(platform.config.INKSTREAM_RATE_LIMIT_PER_MINUTE);
  const idempotent = createIdempotency(platform.readStore, () => platform.clock.nowMs());
  const authenticator = createAuthenticator(platform.tail, platform.readStore, platform.clock);
  const consistencyOfRequest = createConsistency(platform);
  const onUnexpected = (error: unknown, requestId: string) =>
    platform.logger.error({ err: error, requestId }, 'unexpected error');
  const authenticate = (presented: PresentedKey, consistency: Consistency, requestId: string) =>
    authenticator.authenticate(presented, consistency).catch((error: unknown) => {
      const refusal = keyRefusalOf(error);
      if (refusal) platform.logger.info({ requestId, ...refusal }, 'API key refused');
      throw error;
    });

  // The index is an endpoint like the others (authenticated, rate limited) and lists itself.
  const indexRoute = route({
    method: 'get',
    path: '/',
    tag: 'Index',
    summary: 'This index: every endpoint of /api/v1 as an OpenAPI 3.1 document',
    responses: {
      200: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }),
    },
    async handle() {
      return { status: 200, body: openApi };
    },
  });
  const routes = [indexRoute, ...options.routes];
  const openApi = buildOpenApiDocument(routes, platform.config.INKSTREAM_PUBLIC_URL);
  const dispatcher = createDispatcher(routes);

  /** The caller's X-Request-Id when it is sane, else a new one; echoed on the response. */
  const requestIdOf = (req: IncomingMessage, res: ServerResponse): string => {
    const incoming = req.headers['x-request-id'];
    const requestId =
      typeof incoming === 'string' && REQUEST_ID.test(incoming)
        ? incoming
        : platform.ids.next('req');
    res.setHeader('X-Request-Id', requestId);
    return requestId;
  };

  const site = express();
  site.disable('x-powered-by');
  site.set('etag', false);
  site.use((req, res, next) => {
    res.locals.requestId = requestIdOf(req, res);
    next();
  });
  site.get('/healthz', (_req, res) => sendJson(res, 200, { ok: true }));
  site.get('/readyz', (_req, res, next) => {
    options.health
      .ready()
      .then((readiness) => sendJson(res, readiness.ok ? 200 : 503, readiness), next);
  });
  site.use((req, res) => {
    sendError(
      res,
      new AppError('not_found', `Nothing at ${req.path}; the API lives under ${API_PREFIX}.`),
      res.locals.requestId,
    );
  });
  site.use(
    (error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      sendAnyError(res, error, res.locals.requestId, onUnexpected);
    },
  );

  const app = (req: IncomingMessage, res: ServerResponse) => {
    // On every response: no content sniffing, and nothing stored by a browser or a proxy (API
    // responses are one account's data, some carry a secret once); a route may set its own caching.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    if (options.connections && !options.connections.admit(req, res)) {
      res.setHeader('Connection', 'close');
      res.setHeader('Retry-After', '1');
      sendError(
        res,
        new AppError(
          'rate_limited',
          'Too many open connections from your address; close some before opening more.',
        ),
        requestIdOf(req, res),
      );
      return;
    }
    if (options.beside?.(req, res)) return;
    const url = underApiPrefix(requestTarget(req.url ?? '/'));
    if (url === null) {
      site(req, res);
      return;
    }
    // Take no more of a body off the wire until the request is known to be wanted: reading the
    // body resumes the socket (node:http does when the request stream is read).
    if (bodyPending(req)) req.socket.pause();
    const requestId = requestIdOf(req, res);
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    serveApi(req, res, path, queryStart === -1 ? '' : url.slice(queryStart + 1), requestId).catch(
      (error) => sendAnyError(res, error, requestId, onUnexpected),
    );
  };
  return Object.assign(app, { endpoints: dispatcher.endpoints });

  async function serveApi(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    search: string,
    requestId: string,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    let found: Dispatched | null = null;
    let validEncoding = true;
    try {
      found = dispatcher.match(method, path);
    } catch {
      validEncoding = false;
    }
    const request: ApiRequest = {
      method,
      path,
      body: undefined,
      get: (name) => header(req, name),
      protocol: (req.socket as TLSSocket).encrypted ? 'https' : 'http',
    };
    // Who is asking is settled from the headers before a byte of the body is read: a request
    // without a valid key, or over its rate limit, is answered at once and its connection closed
    // unread (sendError). A route that authenticates by its body (a signature) checks what it can first.
    let auth: AuthContext | undefined;
    let consistency = noConsistency;
    if (found?.route.auth === 'none') {
      found.route.beforeBody?.(request);
    } else {
      // No key, or one of another shape, is refused at once: no read of the log's head first.
      const presented = presentedKey(request.get('authorization'));
      consistency = await consistencyOfRequest();
      auth = await authenticate(presented, consistency, requestId);
      requireWriteAccess(auth, method);
      await rateLimit.consume(auth.keyId, res, holderOf(auth));
    }
    // The body is read (and refused) before an unknown endpoint is: a bad body is answered the same anywhere.
    const { body, rawBody } = await readJsonBody(
      req,
      res,
      found?.route.rawBody === true,
      platform.config.INKSTREAM_BODY_TIMEOUT_MS,
    );
    if (!validEncoding)
      throw new AppError('not_found', 'No such resource: the path is not valid percent-encoding.');
    if (!found)
      throw new AppError(
        'not_found',
        `No endpoint ${method} ${API_PREFIX}${path}; GET ${API_PREFIX} lists every endpoint.`,
      );
    request.body = body;
    request.rawBody = rawBody;
    send(req, res, await handle(found, request, search, res, requestId, auth, consistency));
  }

  async function handle(
    { route, params: rawParams }: Dispatched,
    request: ApiRequest,
    search: string,
    res: ServerResponse,
    requestId: string,
    auth: AuthContext | undefined,
    consistency: Consistency,
  ): Promise<RouteResult> {
    if (auth && route.readModels !== 'when read') await consistency.readModelsCurrent();
    const params = parse(route.params, rawParams, 'params');
    const query = route.query ? parse(route.query, parseQuery(search), 'query') : undefined;
    const body = parse(route.body, request.body, 'body');
    const charge = async (requests: number) => {
      if (auth && requests > 0) await rateLimit.consume(auth.keyId, res, holderOf(auth), requests);
    };
    const run = () =>
      route.handle({
        params,
        query,
        body,
        auth: auth!,
        platform,
        requestId,
        request,
        consistency,
        charge,
      });
    const idempotencyKey = request.get('idempotency-key');
    if (route.method === 'post' && idempotencyKey !== undefined && auth) {
      const outcome = await idempotent(
        {
          accountId: auth.accountId,
          key: idempotencyKey,
          method: request.method,
          path: request.path,
          body: request.body,
        },
        async () => toStored(await run()),
      );
      if (outcome.replayed) res.setHeader('Idempotent-Replayed', 'true');
      if (outcome.replayed && outcome.withheld)
        res.setHeader('Idempotent-Withheld', outcome.withheld.join(', '));
      return { status: outcome.status, body: outcome.body };
    }
    return run();
  }
}

/** Whose budget a refusal names: a key's, or a member's (their access tokens of every session together). */
const holderOf = (auth: AuthContext): string | undefined =>
  auth.actor.kind === 'member'
    ? 'this member (their access tokens of every session together)'
    : undefined;

/**
 * The target below /api/v1 (any case, as an express mount matches it): `/api/v1/topics?x` gives
 * `/topics?x`, `/api/v1` gives `/`; null for a target outside the API.
 */
function underApiPrefix(target: string): string | null {
  if (target.slice(0, API_PREFIX.length).toLowerCase() !== API_PREFIX) return null;
  const rest = target.slice(API_PREFIX.length);
  if (rest === '' || rest.startsWith('?')) return `/${rest}`;
  return rest.startsWith('/') ? rest : null;
}

/** The path and query; a request in absolute form (`GET http://host/path`) is served like its path. */
function requestTarget(url: string): string {
  if (url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function parse(schema: z.ZodType | undefined, value: unknown, where: string): any {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!result.success) {
    if (where === 'params')
      throw new AppError('not_found', 'No such resource: the id in the path does not name one.');
    const details = fieldIssues(result.error, where);
    const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
    throw new AppError('validation_failed', `Invalid request ${where}: ${summary}`, { details });
  }
  return result.data;
}

function toStored(result: RouteResult): { status: number; body: unknown } {
  if ('raw' in result || 'stream' in result)
    throw new AppError('bad_request', 'Idempotency-Key is not supported on this endpoint.');
  if ('json' in result)
    return { status: result.status, body: JSON.parse(result.json.toString('utf8')) };
  return { status: result.status, body: result.body ?? null };
}

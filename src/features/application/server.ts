import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import { readJsonBody } from '../../http/body.ts';
import { clientAddressOf, trustedProxies } from '../../http/clientAddress.ts';
import { createDispatcher, type Dispatched } from '../../http/dispatch.ts';
import { fieldIssues, sendAnyError } from '../../http/errors.ts';
import { send } from '../../http/respond.ts';
import { createAppRateLimit } from './appRateLimit.ts';
import type { AppRoute } from './appRoute.ts';
import { overHttps } from './cookies.ts';
import { requireSameOrigin } from './sameOrigin.ts';
import { csrfTokenMatches } from './sessions.ts';
import { signedInSession } from './signedInSession.ts';
import type { SignInThrottle } from './signIn.ts';

export const APPLICATION_API_PREFIX = '/app/api';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Serves the application's own endpoints (sign-in, members, sessions, keys) under /app/api,
 * authenticated by the session cookie. Unsafe requests pass the same-origin check before anything
 * else, and, signed in, must carry the session's CSRF token in `X-CSRF-Token`.
 */
export function createApplicationApi(
  platform: Platform,
  routes: readonly AppRoute[],
  throttle: SignInThrottle,
) {
  const dispatcher = createDispatcher(routes);
  const limits = createAppRateLimit(platform.config);
  const isTrustedProxy = trustedProxies(platform.config.INKSTREAM_TRUSTED_PROXIES);
  const onUnexpected = (error: unknown, requestId: string) =>
    platform.logger.error({ err: error, requestId }, 'unexpected error');

  async function serve(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    requestId: string,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    let found: Dispatched<AppRoute> | null = null;
    try {
      found = dispatcher.match(method, path);
    } catch {
      found = null;
    }
    const address = clientAddressOf(req, isTrustedProxy);
    await limits.byAddress(address, res);
    const secure = overHttps(req, platform.config);
    const unsafe = !SAFE_METHODS.has(method.toUpperCase());
    if (unsafe) requireSameOrigin(req, secure, platform.config);
    const signedIn =
      found && found.route.access !== 'public'
        ? await signedInSession(platform, req, secure)
        : null;
    if (signedIn) await limits.bySession(signedIn, res);
    if (signedIn && unsafe && !csrfTokenMatches(signedIn.session, header(req, 'x-csrf-token'))) {
      throw new AppError(
        'forbidden',
        'Missing or wrong X-CSRF-Token header: send the csrfToken that sign-in and GET /app/api/me return.',
      );
    }
    if (found?.route.access === 'owner' && signedIn?.member.role !== 'owner') {
      throw new AppError(
        'forbidden',
        `Only owners of the account can do this; your role is ${signedIn?.member.role}.`,
      );
    }
    const { body } = await readJsonBody(req, res, false, platform.config.INKSTREAM_BODY_TIMEOUT_MS);
    if (!found)
      throw new AppError('not_found', `No endpoint ${method} ${APPLICATION_API_PREFIX}${path}.`);
    const result = await found.route.handle({
      body: parseBody(found.route.body, body),
      params: found.params,
      platform,
      requestId,
      req,
      secure,
      address,
      throttle,
      signedIn,
    });
    if (result.cookie) res.setHeader('Set-Cookie', result.cookie);
    send(req, res, { status: result.status, body: result.body });
  }

  return (req: IncomingMessage, res: ServerResponse, path: string): void => {
    const requestId = platform.ids.next('req');
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    serve(req, res, path, requestId).catch((error: unknown) => {
      const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
      if (retryAfter !== undefined && !res.headersSent)
        res.setHeader('Retry-After', String(retryAfter));
      sendAnyError(res, error, requestId, onUnexpected);
    });
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseBody(schema: z.ZodType | undefined, value: unknown): any {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = fieldIssues(result.error, 'body');
  throw new AppError(
    'validation_failed',
    `Invalid request body: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
    { details },
  );
}

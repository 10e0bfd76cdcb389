import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './v1.ts';
import { app, RequestFailed } from './appClient.ts';

/** A token is renewed this long before the server says it runs out. */
const RENEW_BEFORE_MS = 60_000;

export type AccessTokens = { get(force?: boolean): Promise<string>; forget(): void };

/**
 * The session's access tokens for /api/v1: kept in memory only, renewed a minute before they run
 * out by `now` (the page's clock), and forgotten when the server refuses one. The request for a
 * token under way is shared: a page's first requests, sent together, ask once.
 */
export function accessTokens(
  issue: () => Promise<{ accessToken: string; expiresAt: string }>,
  now: () => number = Date.now,
): AccessTokens {
  let current: { token: string; renewAtMs: number } | null = null;
  let issuing: Promise<string> | null = null;
  return {
    get(force = false) {
      if (!force && current && now() < current.renewAtMs) return Promise.resolve(current.token);
      issuing ??= issue()
        .then((issued) => {
          current = {
            token: issued.accessToken,
            renewAtMs: Date.parse(issued.expiresAt) - RENEW_BEFORE_MS,
          };
          return current.token;
        })
        .finally(() => {
          issuing = null;
        });
      return issuing;
    },
    forget() {
      current = null;
    },
  };
}

/**
 * Sends the access token. A 401 is a refusal of the token before anything was done (the API
 * authenticates before it reads a body), so the request goes once more with a fresh token: a token
 * the server ended early (a role change, a server clock ahead of this page's) costs no error. When
 * the request for a fresh token is refused (401), the session is over, and that refusal from /app/api
 * sends the person to sign in; any other failure returns the first refusal to the caller.
 */
export function bearer(tokens: AccessTokens): Middleware {
  const resendable = new Map<string, Request>();
  return {
    async onRequest({ request, id }) {
      request.headers.set('authorization', `Bearer ${await tokens.get()}`);
      resendable.set(id, request.clone());
      return request;
    },
    async onResponse({ response, id, options: { fetch } }) {
      const again = resendable.get(id);
      resendable.delete(id);
      if (response.status !== 401 || !again) return response;
      tokens.forget();
      const fresh = await tokens.get(true).catch(() => null);
      if (!fresh) return response;
      again.headers.set('authorization', `Bearer ${fresh}`);
      return fetch(again);
    },
    onError({ id }) {
      resendable.delete(id);
    },
  };
}

/** /api/v1 through a client generated from the service's own OpenAPI index (`npm run api-types`). */
export function v1Client(baseUrl: string, tokens: AccessTokens) {
  const client = createClient<paths>({ baseUrl });
  client.use(bearer(tokens));
  return client;
}

const sessionTokens = accessTokens(() => app.accessToken());

/** The session's access token for /api/v1, renewed when it is about to run out (also used by the live stream). */
export const accessToken = (force = false): Promise<string> => sessionTokens.get(force);
export const forgetAccessToken = (): void => sessionTokens.forget();

export const api = v1Client('/api/v1', sessionTokens);

/** The answer's body, or the API's `{error:{code,message,details}}` thrown as a RequestFailed. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const body = (error as { error?: { code: string; message: string } } | undefined)?.error;
    throw new RequestFailed({
      status: response.status,
      ...(body ?? { code: 'internal', message: `The server answered ${response.status}.` }),
    });
  }
  return data as T;
}

import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './v1.ts';
import { app, RequestFailed } from './appClient.ts';

/**
 * /api/v1 through a client generated from the service's own OpenAPI index (`npm run api-types`).
 * Its bearer token is an access token of the session: kept in memory only, renewed a minute
 * before it runs out, and forgotten when the server refuses it (the next request asks for a new
 * one; a revoked session then sends the person to sign in).
 */
let current: { token: string; renewAtMs: number } | null = null;

/** The session's access token for /api/v1, renewed when it is about to run out (also used by the live stream). */
export async function accessToken(force = false): Promise<string> {
  if (!force && current && Date.now() < current.renewAtMs) return current.token;
  const issued = await app.accessToken();
  current = { token: issued.accessToken, renewAtMs: Date.parse(issued.expiresAt) - 60_000 };
  return current.token;
}

export const forgetAccessToken = () => { current = null; };

const bearer: Middleware = {
  async onRequest({ request }) {
    request.headers.set('authorization', `Bearer ${await accessToken()}`);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) forgetAccessToken();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '/api/v1' });
api.use(bearer);

/** The answer's body, or the API's `{error:{code,message,details}}` thrown as a RequestFailed. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const body = (error as { error?: { code: string; message: string } } | undefined)?.error;
    throw new RequestFailed({ status: response.status, ...(body ?? { code: 'internal', message: `The server answered ${response.status}.` }) });
  }
  return data as T;
}

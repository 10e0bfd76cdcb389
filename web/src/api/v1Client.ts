import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './v1.ts';
import { app } from './appClient.ts';

/**
 * /api/v1 through a client generated from the service's own OpenAPI index (`npm run api-types`).
 * Its bearer token is an access token of the session: kept in memory only, renewed a minute
 * before it runs out, and asked for again once if the server refuses it.
 */
let current: { token: string; renewAtMs: number } | null = null;

async function accessToken(force = false): Promise<string> {
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
};

export const api = createClient<paths>({ baseUrl: '/api/v1' });
api.use(bearer);

/**
 * A local Google for tests: the OAuth 2.0 token endpoint (refresh-token grant and the service
 * account JWT bearer grant, with Google's error bodies) and the Search Console API paths the
 * official client calls (sites.get, sites.list, searchanalytics.query), in Google's wire format.
 *
 *   const google = await startFakeSearchConsole();
 *   google.addOAuthClient('client-1', 'secret-1');
 *   google.addRefreshToken('1//refresh', { clientId: 'client-1', user: 'owner@example.com' });
 *   google.addProperty('sc-domain:example.com', { 'owner@example.com': 'siteOwner' });
 *   google.addRows('sc-domain:example.com', [{ date: '2026-01-10', page, query: 'bread', clicks: 3, impressions: 40, position: 4.2 }]);
 *   google.failNext('query', googleError.rateLimited());
 *
 * Search Console data is kept per day, page and query and aggregated like the API does: clicks
 * and impressions summed, CTR = clicks / impressions, position weighted by impressions.
 */
import {
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHttpServer } from './httpServer.ts';

export const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';
const SCOPES_THAT_READ = [
  'https://www.googleapis.com/auth/webmasters.readonly',
  'https://www.googleapis.com/auth/webmasters',
];

export type Scripted = { status: number; body: unknown; headers?: Record<string, string> };
export type CallKind = 'token' | 'site' | 'sites' | 'query';
export type RecordedCall = {
  kind: CallKind;
  method: string;
  path: string;
  siteUrl: string | null;
  body: any;
  principal: string | null;
  status: number;
};
export type DataRow = {
  date: string;
  page: string;
  query: string;
  clicks: number;
  impressions: number;
  position: number;
};

const apiError = (
  code: number,
  message: string,
  status: string,
  reason: string,
  extra: Record<string, unknown> = {},
) => ({
  error: { code, message, errors: [{ message, domain: 'global', reason }], status, ...extra },
});

/** Google's error answers, for scripting failures. */
export const googleError = {
  rateLimited: (headers: Record<string, string> = {}): Scripted => ({
    status: 429,
    headers,
    body: apiError(
      429,
      "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user'.",
      'RESOURCE_EXHAUSTED',
      'rateLimitExceeded',
    ),
  }),
  quota403: (): Scripted => ({
    status: 403,
    body: apiError(403, 'User Rate Limit Exceeded', 'PERMISSION_DENIED', 'userRateLimitExceeded'),
  }),
  serverError: (status = 500): Scripted => ({
    status,
    body: apiError(
      status,
      'Internal error encountered.',
      status === 503 ? 'UNAVAILABLE' : 'INTERNAL',
      'backendError',
    ),
  }),
  tokenServerError: (): Scripted => ({
    status: 503,
    body: {
      error: 'temporarily_unavailable',
      error_description: 'The service is currently unavailable.',
    },
  }),
};

const forbidden = (siteUrl: string) =>
  apiError(
    403,
    `User does not have sufficient permission for site '${siteUrl}'. See also: https://support.google.com/webmasters/answer/2451999.`,
    'PERMISSION_DENIED',
    'forbidden',
  );

type Token = { principal: string; scopes: string[] };

export async function startFakeSearchConsole(options: { nowMs?: () => number } = {}) {
  const nowSeconds = () => Math.floor((options.nowMs?.() ?? Date.now()) / 1000);
  const clients = new Map<string, string>();
  const refreshTokens = new Map<string, { clientId: string; user: string; scopes: string[] }>();
  const serviceAccounts = new Map<string, KeyObject>();
  const accessTokens = new Map<string, Token>();
  const properties = new Map<string, { users: Map<string, string>; rows: DataRow[] }>();
  const scripted: Record<CallKind, Scripted[]> = { token: [], site: [], sites: [], query: [] };
  const scriptedWhere: { kind: CallKind; match: (body: any) => boolean; answers: Scripted[] }[] =
    [];
  const calls: RecordedCall[] = [];

  function issue(principal: string, scopes: string[]) {
    const token = `ya29.${randomBytes(12).toString('hex')}`;
    accessTokens.set(token, { principal, scopes });
    return {
      status: 200,
      body: {
        access_token: token,
        expires_in: 3599,
        scope: scopes.join(' '),
        token_type: 'Bearer',
      },
    };
  }

  const oauthError = (status: number, error: string, description: string) => ({
    status,
    body: { error, error_description: description },
  });

  function refreshGrant(form: URLSearchParams): Scripted {
    const clientId = form.get('client_id') ?? '';
    if (!clients.has(clientId) || clients.get(clientId) !== form.get('client_secret'))
      return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    const grant = refreshTokens.get(form.get('refresh_token') ?? '');
    if (!grant) return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    if (grant.clientId !== clientId) return oauthError(400, 'unauthorized_client', 'Unauthorized');
    return issue(grant.user, grant.scopes);
  }

  function jwtGrant(form: URLSearchParams): Scripted {
    const [header = '', payload = '', signature = ''] = (form.get('assertion') ?? '').split('.');
    let claims: { iss?: string; aud?: string; scope?: string; exp?: number; iat?: number };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return oauthError(400, 'invalid_grant', 'Invalid JWT: could not parse the assertion.');
    }
    const key = serviceAccounts.get(claims.iss ?? '');
    if (!key) return oauthError(400, 'invalid_grant', 'Invalid grant: account not found');
    if (
      !verify(
        'RSA-SHA256',
        Buffer.from(`${header}.${payload}`),
        key,
        Buffer.from(signature, 'base64url'),
      )
    )
      return oauthError(400, 'invalid_grant', 'Invalid JWT Signature.');
    if (claims.aud !== GOOGLE_TOKEN_AUDIENCE)
      return oauthError(
        400,
        'invalid_grant',
        'Invalid JWT: Failed audience check. The expected value is https://oauth2.googleapis.com/token.',
      );
    if (!claims.exp || claims.exp < nowSeconds() - 60)
      return oauthError(
        400,
        'invalid_grant',
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.',
      );
    const scopes = (claims.scope ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0)
      return oauthError(400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
    return issue(claims.iss!, scopes);
  }

  function token(form: URLSearchParams): Scripted {
    const grantType = form.get('grant_type');
    if (grantType === 'refresh_token') return refreshGrant(form);
    if (grantType === 'urn:ietf:params:oauth:grant-type:jwt-bearer') return jwtGrant(form);
    return oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
  }

  function authorized(req: IncomingMessage): Token | Scripted {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const found = bearer ? accessTokens.get(bearer) : undefined;
    if (!found)
      return {
        status: 401,
        body: apiError(
          401,
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
          'UNAUTHENTICATED',
          'authError',
        ),
      };
    if (!found.scopes.some((scope) => SCOPES_THAT_READ.includes(scope))) {
      return {
        status: 403,
        body: apiError(
          403,
          'Request had insufficient authentication scopes.',
          'PERMISSION_DENIED',
          'insufficientPermissions',
          {
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
                domain: 'googleapis.com',
              },
            ],
          },
        ),
      };
    }
    return found;
  }

  const permission = (siteUrl: string, principal: string): string | null =>
    properties.get(siteUrl)?.users.get(principal) ?? null;

  function query(siteUrl: string, body: any): Scripted {
    if (!body?.startDate || !body?.endDate)
      return {
        status: 400,
        body: apiError(400, 'startDate field is required.', 'INVALID_ARGUMENT', 'badRequest'),
      };
    const rowLimit = body.rowLimit ?? 1000;
    if (rowLimit < 1 || rowLimit > 25_000)
      return {
        status: 400,
        body: apiError(
          400,
          'rowLimit must be between 1 and 25000.',
          'INVALID_ARGUMENT',
          'badRequest',
        ),
      };
    const dimensions: ('page' | 'query' | 'date')[] = body.dimensions ?? [];
    const filters: { dimension: string; operator?: string; expression: string }[] = (
      body.dimensionFilterGroups ?? []
    ).flatMap((group: any) => group.filters ?? []);
    const rows = (properties.get(siteUrl)?.rows ?? []).filter(
      (row) =>
        row.date >= body.startDate &&
        row.date <= body.endDate &&
        filters.every(
          (filter) =>
            (filter.operator ?? 'equals') === 'equals' &&
            row[filter.dimension as 'page' | 'query' | 'date'] === filter.expression,
        ),
    );
    const groups = new Map<
      string,
      { keys: string[]; clicks: number; impressions: number; weighted: number }
    >();
    for (const row of rows) {
      const keys = dimensions.map((dimension) => row[dimension]);
      const group = groups.get(JSON.stringify(keys)) ?? {
        keys,
        clicks: 0,
        impressions: 0,
        weighted: 0,
      };
      group.clicks += row.clicks;
      group.impressions += row.impressions;
      group.weighted += row.position * row.impressions;
      groups.set(JSON.stringify(keys), group);
    }
    const all = [...groups.values()]
      .filter((group) => group.impressions > 0)
      .sort((a, b) => b.clicks - a.clicks || b.impressions - a.impressions)
      .map((group) => ({
        keys: group.keys,
        clicks: group.clicks,
        impressions: group.impressions,
        ctr: group.clicks / group.impressions,
        position: group.weighted / group.impressions,
      }));
    const page = all.slice(body.startRow ?? 0, (body.startRow ?? 0) + rowLimit);
    return {
      status: 200,
      body: page.length
        ? { rows: page, responseAggregationType: 'byPage' }
        : { responseAggregationType: 'byPage' },
    };
  }

  function api(
    kind: CallKind,
    req: IncomingMessage,
    siteUrl: string | null,
    body: any,
  ): Scripted & { principal?: string } {
    const caller = authorized(req);
    if ('status' in caller) return caller;
    const principal = caller.principal;
    if (kind === 'sites') {
      const siteEntry = [...properties].flatMap(([url, property]) =>
        property.users.has(principal)
          ? [{ siteUrl: url, permissionLevel: property.users.get(principal) }]
          : [],
      );
      return { status: 200, body: siteEntry.length ? { siteEntry } : {}, principal };
    }
    const level = permission(siteUrl!, principal);
    if (!level) return { status: 403, body: forbidden(siteUrl!), principal };
    if (kind === 'site')
      return { status: 200, body: { siteUrl, permissionLevel: level }, principal };
    if (level === 'siteUnverifiedUser')
      return { status: 403, body: forbidden(siteUrl!), principal };
    return { ...query(siteUrl!, body), principal };
  }

  function route(method: string, path: string): { kind: CallKind; siteUrl: string | null } | null {
    if (method === 'POST' && path === '/token') return { kind: 'token', siteUrl: null };
    if (method === 'GET' && path === '/webmasters/v3/sites')
      return { kind: 'sites', siteUrl: null };
    const match = /^\/webmasters\/v3\/sites\/([^/]+)(\/searchAnalytics\/query)?$/.exec(path);
    if (!match) return null;
    const siteUrl = decodeURIComponent(match[1]);
    if (match[2] && method === 'POST') return { kind: 'query', siteUrl };
    if (!match[2] && method === 'GET') return { kind: 'site', siteUrl };
    return null;
  }

  function reply(res: ServerResponse, answer: Scripted) {
    res.writeHead(answer.status, {
      'content-type': 'application/json; charset=UTF-8',
      ...answer.headers,
    });
    res.end(JSON.stringify(answer.body));
  }

  const server = await startHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const found = route(req.method ?? 'GET', path);
      if (!found)
        return reply(res, {
          status: 404,
          body: apiError(404, `No route ${req.method} ${path}`, 'NOT_FOUND', 'notFound'),
        });
      const text = Buffer.concat(chunks).toString('utf8');
      const body =
        found.kind === 'token'
          ? Object.fromEntries(new URLSearchParams(text))
          : text
            ? JSON.parse(text)
            : null;
      const next =
        scriptedWhere
          .find(
            (entry) => entry.kind === found.kind && entry.answers.length > 0 && entry.match(body),
          )
          ?.answers.shift() ?? scripted[found.kind].shift();
      const answer =
        next ??
        (found.kind === 'token'
          ? token(new URLSearchParams(text))
          : api(found.kind, req, found.siteUrl, body));
      const principal =
        'principal' in answer && typeof answer.principal === 'string' ? answer.principal : null;
      calls.push({
        kind: found.kind,
        method: req.method ?? '',
        path,
        siteUrl: found.siteUrl,
        body,
        principal,
        status: answer.status,
      });
      reply(res, answer);
    });
  });

  return {
    origin: server.origin,
    /** SEARCH_CONSOLE_API_URL */
    rootUrl: `${server.origin}/`,
    /** GOOGLE_OAUTH_TOKEN_URL */
    tokenUrl: `${server.origin}/token`,
    env: () => ({
      SEARCH_CONSOLE_API_URL: `${server.origin}/`,
      GOOGLE_OAUTH_TOKEN_URL: `${server.origin}/token`,
    }),
    calls,
    callsOf: (kind: CallKind) => calls.filter((call) => call.kind === kind),
    addOAuthClient(clientId: string, clientSecret: string) {
      clients.set(clientId, clientSecret);
    },
    addRefreshToken(
      refreshToken: string,
      grant: { clientId: string; user: string; scopes?: string[] },
    ) {
      refreshTokens.set(refreshToken, {
        clientId: grant.clientId,
        user: grant.user,
        scopes: grant.scopes ?? [SCOPES_THAT_READ[0]],
      });
    },
    /** What revoking access at myaccount.google.com does: the refresh token answers invalid_grant from now on. */
    revokeRefreshToken(refreshToken: string) {
      refreshTokens.delete(refreshToken);
    },
    /** A service account with a fresh RSA key, as in the JSON key file Google hands out. */
    addServiceAccount(clientEmail: string): { clientEmail: string; privateKey: string } {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      serviceAccounts.set(
        clientEmail,
        createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })),
      );
      return {
        clientEmail,
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      };
    },
    addProperty(siteUrl: string, users: Record<string, string>) {
      properties.set(siteUrl, { users: new Map(Object.entries(users)), rows: [] });
    },
    setUser(siteUrl: string, principal: string, level: string | null) {
      const users = properties.get(siteUrl)!.users;
      if (level === null) users.delete(principal);
      else users.set(principal, level);
    },
    addRows(siteUrl: string, rows: DataRow[]) {
      properties.get(siteUrl)!.rows.push(...rows);
    },
    /** The next calls of this kind get these answers, in order, instead of the real ones. */
    failNext(kind: CallKind, ...answers: Scripted[]) {
      scripted[kind].push(...answers);
    },
    /** The next calls of this kind whose body matches get these answers, in order. */
    failWhere(kind: CallKind, match: (body: any) => boolean, ...answers: Scripted[]) {
      scriptedWhere.push({ kind, match, answers });
    },
    close: () => server.close(),
  };
}

export type FakeSearchConsole = Awaited<ReturnType<typeof startFakeSearchConsole>>;

/**
 * A browser's view of the application's own endpoints under /app/api, over real HTTP: it keeps the
 * session cookie it is given, sends the page's Origin, and sends the CSRF token on unsafe requests
 * once it has one (as the web app does).
 */
export type AppResponse<T = any> = { status: number; body: T; headers: Headers };

export type AppSession = {
  cookie: string | null;
  csrfToken: string | null;
  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<AppResponse<T>>;
};

export function appSession(
  baseUrl: string,
  options: { origin?: string | null; headers?: Record<string, string> } = {},
): AppSession {
  const origin = options.origin === undefined ? baseUrl : options.origin;
  const session: AppSession = {
    cookie: null,
    csrfToken: null,
    async request(method, path, body, headers = {}) {
      const unsafe = !['GET', 'HEAD'].includes(method);
      const response = await fetch(`${baseUrl}/app/api${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(session.cookie ? { cookie: session.cookie } : {}),
          ...(unsafe && origin ? { origin } : {}),
          ...(unsafe && session.csrfToken ? { 'x-csrf-token': session.csrfToken } : {}),
          ...options.headers,
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const setCookie = response.headers.get('set-cookie');
      if (setCookie) {
        const pair = setCookie.split(';')[0];
        session.cookie = pair.endsWith('=') ? null : pair;
      }
      const text = await response.text();
      const parsed = text ? JSON.parse(text) : null;
      if (parsed?.csrfToken) session.csrfToken = parsed.csrfToken;
      return { status: response.status, body: parsed, headers: response.headers };
    },
  };
  return session;
}

/** The token in a one-time link (it travels in the fragment). */
export const linkToken = (link: string): string => new URL(link).hash.replace(/^#token=/, '');

/** Sets a password through a link, then signs in: a member's first visit. */
export async function joinAndSignIn(
  baseUrl: string,
  link: string,
  email: string,
  password = 'plum-orchard-lantern-42',
): Promise<AppSession> {
  const session = appSession(baseUrl);
  const set = await session.request('POST', '/set-password', {
    token: linkToken(link),
    password,
    email,
  });
  if (set.status !== 200)
    throw new Error(`set-password answered ${set.status}: ${JSON.stringify(set.body)}`);
  const signedIn = await session.request('POST', '/sign-in', { email, password });
  if (signedIn.status !== 200)
    throw new Error(`sign-in answered ${signedIn.status}: ${JSON.stringify(signedIn.body)}`);
  return session;
}

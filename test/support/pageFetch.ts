/** One request a page sent, as the server saw it, and the status it got. */
export type SentRequest = { method: string; path: string; bearer: string | null; status: number };

/**
 * What a page's `fetch` does that Node's does not, for running the web app's own client code under
 * vitest against a real server: a path resolves against the page's origin, the site's session
 * cookie goes along (and follows Set-Cookie), and unsafe requests carry the page's Origin. Every
 * request is recorded in `sent`, in order.
 */
export function pageFetch(origin: string) {
  const nodeFetch = globalThis.fetch;
  let cookie: string | null = null;
  const sent: SentRequest[] = [];
  const fetchLikeAPage = async (
    input: string | URL | Request,
    init?: RequestInit,
  ): Promise<Response> => {
    const url = typeof input === 'string' && input.startsWith('/') ? `${origin}${input}` : input;
    const request = new Request(url, init);
    const headers = new Headers(request.headers);
    if (cookie) headers.set('cookie', cookie);
    if (!['GET', 'HEAD'].includes(request.method)) headers.set('origin', origin);
    const response = await nodeFetch(new Request(request, { headers }));
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const pair = setCookie.split(';')[0];
      cookie = pair.endsWith('=') ? null : pair;
    }
    const bearer = headers.get('authorization')?.replace(/^Bearer /, '') ?? null;
    sent.push({
      method: request.method,
      path: new URL(request.url).pathname,
      bearer,
      status: response.status,
    });
    return response;
  };
  return { fetch: fetchLikeAPage as typeof fetch, sent };
}

import tls from 'node:tls';
import type { Agent } from 'undici';
import type { Limiter, Release } from '../../core/limiter.ts';
import { toSafeHttpError } from './connectionErrors.ts';
import { createDestinationPolicy, type DestinationPolicy } from './destinationPolicy.ts';
import { HttpTimeoutError, ResponseTooLargeError, TooManyRedirectsError } from './errors.ts';
import { createGuardedLookup, type ResolveHost } from './guardedLookup.ts';
import { readBody, type TooLargePolicy } from './readBody.ts';
import { isRedirect, nextHop, type Hop } from './redirects.ts';
import { parseRequestUrl } from './urlPolicy.ts';

export const DEFAULT_USER_AGENT =
  'Inkstream/0.1 (self-hosted content automation; respects robots.txt)';

export type SafeHttpClientOptions = {
  userAgent?: string;
  /** Lifts the public-address check (INKSTREAM_ALLOW_PRIVATE_URLS=1): local development and tests only. */
  allowPrivateAddresses?: boolean;
  /** CIDRs that stay reachable while every other private range is refused, e.g. ['10.1.2.3/32']. */
  allowedAddressRanges?: readonly string[];
  /** Extra trusted CA certificates (PEM), added to Node's default store (which includes NODE_EXTRA_CA_CERTS). */
  ca?: string | readonly string[];
  /** DNS resolution; defaults to the system resolver (getaddrinfo, every address). */
  resolveHost?: ResolveHost;
  /** The policy the registration checks used (platform.destinations); replaces the three options above. */
  destinations?: DestinationPolicy;
  /** Defaults for every request; each request can override them. */
  timeoutMs?: number;
  maxBytes?: number;
  onTooLarge?: TooLargePolicy;
  maxRedirects?: number;
  connectionsPerOrigin?: number;
  keepAliveTimeoutMs?: number;
  /**
   * Requests in flight per destination origin (scheme, host and port), shared by every client
   * given the same limiter. A request waits for its turn before its timeout starts; each redirect
   * hop takes a turn at its own origin.
   */
  originLimiter?: Limiter;
};

export type SafeRequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Total time for the whole exchange: connect, every redirect hop, headers and body. */
  timeoutMs?: number;
  /** Cap on the (decoded) body; what happens above it is decided by `onTooLarge`. */
  maxBytes?: number;
  onTooLarge?: TooLargePolicy;
  /** 0 returns a 3xx as it is; above 0 follows up to that many hops, checking each target. */
  maxRedirects?: number;
  signal?: AbortSignal;
};

export type SafeResponse = {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". Content-Encoding is removed once decoded. */
  headers: Record<string, string>;
  body: Buffer;
  /** True when the body was cut at `maxBytes` (onTooLarge: 'truncate'). */
  truncated: boolean;
  /** The URL that answered, after redirects. */
  url: string;
  /** The URLs that redirected, in order. */
  redirects: string[];
};

export interface SafeHttpClient {
  request(url: string | URL, options?: SafeRequestOptions): Promise<SafeResponse>;
  close(): Promise<void>;
}

const noRelease: Release = () => {};

const lowerCaseKeys = (headers: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

const flattenHeaders = (
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers)
      .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
  );

export function createSafeHttpClient(options: SafeHttpClientOptions = {}): SafeHttpClient {
  const destinations =
    options.destinations ??
    createDestinationPolicy({
      allowPrivateAddresses: options.allowPrivateAddresses,
      allowedRanges: options.allowedAddressRanges,
      resolveHost: options.resolveHost,
    });
  const policy = destinations.addresses;
  const extraCa =
    options.ca === undefined ? [] : typeof options.ca === 'string' ? [options.ca] : [...options.ca];
  // undici (~25 MB resident) is loaded by the first request, not by a start that never sends one.
  let agent: Promise<Agent> | null = null;
  let closed = false;
  const connectionPool = () =>
    (agent ??= closed
      ? Promise.reject(new Error('this HTTP client is closed'))
      : import('undici').then(
          ({ Agent }) =>
            new Agent({
              keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
              connections: options.connectionsPerOrigin ?? 6,
              connect: {
                lookup: createGuardedLookup(destinations.resolveHost, destinations.refusal),
                ...(extraCa.length > 0
                  ? { ca: [...tls.getCACertificates('default'), ...extraCa] }
                  : {}),
              },
            }),
        ));
  const defaults = {
    timeoutMs: options.timeoutMs ?? 15_000,
    maxBytes: options.maxBytes ?? 5 * 1024 * 1024,
    onTooLarge: options.onTooLarge ?? 'fail',
    maxRedirects: options.maxRedirects ?? 0,
  };

  async function request(input: string | URL, req: SafeRequestOptions = {}): Promise<SafeResponse> {
    const timeoutMs = req.timeoutMs ?? defaults.timeoutMs;
    const maxBytes = req.maxBytes ?? defaults.maxBytes;
    const onTooLarge = req.onTooLarge ?? defaults.onTooLarge;
    const maxRedirects = req.maxRedirects ?? defaults.maxRedirects;
    let hop: Hop = {
      url: parseRequestUrl(input, policy),
      method: (req.method ?? 'GET').toUpperCase(),
      headers: {
        'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
        accept: '*/*',
        'accept-encoding': 'gzip, deflate, br',
        ...lowerCaseKeys(req.headers),
      },
      body: req.body,
    };
    const turnAt = (url: URL, waitSignal?: AbortSignal): Promise<Release> =>
      options.originLimiter
        ? options.originLimiter.acquire(url.origin, { signal: waitSignal })
        : Promise.resolve(noRelease);
    let release = await turnAt(hop.url, req.signal);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = req.signal ? AbortSignal.any([timeout.signal, req.signal]) : timeout.signal;
    const redirects: string[] = [];
    try {
      for (;;) {
        const response = await (await connectionPool()).request({
          origin: hop.url.origin,
          path: hop.url.pathname + hop.url.search,
          method: hop.method as 'GET',
          headers: hop.headers,
          body: hop.body,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const headers = flattenHeaders(response.headers);
        if (maxRedirects > 0 && isRedirect(response.statusCode, headers.location)) {
          await response.body.dump();
          if (redirects.length >= maxRedirects)
            throw new TooManyRedirectsError(hop.url.href, maxRedirects);
          redirects.push(hop.url.href);
          hop = nextHop(hop, response.statusCode, headers.location, policy);
          release();
          release = await turnAt(hop.url, signal);
          continue;
        }
        const declaredLength = Number(headers['content-length']);
        if (onTooLarge === 'fail' && !headers['content-encoding'] && declaredLength > maxBytes) {
          response.body.on('error', () => {}).destroy();
          throw new ResponseTooLargeError(hop.url.href, maxBytes);
        }
        const read = await readBody(response.body, {
          url: hop.url.href,
          contentEncoding: headers['content-encoding'],
          maxBytes,
          onTooLarge,
        });
        if (read.decoded) {
          delete headers['content-encoding'];
          delete headers['content-length'];
        }
        return {
          status: response.statusCode,
          headers,
          body: read.body,
          truncated: read.truncated,
          url: hop.url.href,
          redirects,
        };
      }
    } catch (error) {
      if (timeout.signal.aborted)
        throw new HttpTimeoutError(hop.url.href, timeoutMs, { cause: error });
      if (req.signal?.aborted) throw req.signal.reason ?? error;
      throw toSafeHttpError(error, hop.url, timeoutMs);
    } finally {
      release();
      clearTimeout(timer);
    }
  }

  const close = async () => {
    closed = true;
    if (agent) await (await agent).close();
  };
  return { request, close };
}

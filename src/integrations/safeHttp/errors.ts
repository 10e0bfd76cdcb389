/**
 * Errors of the outbound HTTP client. Messages are written for the person who typed the URL
 * (a website, a webhook endpoint, a post-publish hook): they say what happened and what to change.
 */
export type SafeHttpErrorKind =
  | 'invalid_url'
  | 'blocked_address'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'connection';

export class SafeHttpError extends Error {
  readonly kind: SafeHttpErrorKind;
  /** The URL being requested when the error happened (the redirect hop, not always the first URL). */
  readonly url: string;

  constructor(
    kind: SafeHttpErrorKind,
    url: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'SafeHttpError';
    this.kind = kind;
    this.url = url;
  }
}

export class InvalidUrlError extends SafeHttpError {
  constructor(url: string, problem: string) {
    super('invalid_url', url, `Cannot request ${JSON.stringify(url)}: ${problem}.`);
    this.name = 'InvalidUrlError';
  }
}

/**
 * The message names only what the tenant wrote: what a name resolved to, and which internal range
 * that address is in, stay on the error's fields for the operator's log.
 */
export class BlockedAddressError extends SafeHttpError {
  readonly hostname: string;
  readonly address: string;
  /** Which special-purpose range the address is in, e.g. "loopback" or "private (RFC 1918)". */
  readonly range: string;

  constructor(url: string, details: { hostname: string; address: string; range: string }) {
    const what =
      details.hostname === details.address
        ? `${details.address} is not a public address`
        : `${details.hostname} does not resolve to a public address`;
    super(
      'blocked_address',
      url,
      `Refused to connect: ${what}. Use a publicly reachable URL ` +
        '(the operator can allow private addresses for local development with INKSTREAM_ALLOW_PRIVATE_URLS=1).',
    );
    this.name = 'BlockedAddressError';
    this.hostname = details.hostname;
    this.address = details.address;
    this.range = details.range;
  }
}

export class HttpTimeoutError extends SafeHttpError {
  readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number, options: { cause?: unknown } = {}) {
    super(
      'timeout',
      url,
      `${url} did not answer completely within ${timeoutMs} ms. Check that the server is up and responds quickly.`,
      options,
    );
    this.name = 'HttpTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

export class ResponseTooLargeError extends SafeHttpError {
  readonly maxBytes: number;

  constructor(url: string, maxBytes: number) {
    super('too_large', url, `The response from ${url} is larger than the ${maxBytes}-byte limit.`);
    this.name = 'ResponseTooLargeError';
    this.maxBytes = maxBytes;
  }
}

export class TooManyRedirectsError extends SafeHttpError {
  readonly maxRedirects: number;

  constructor(url: string, maxRedirects: number) {
    super(
      'too_many_redirects',
      url,
      `${url} redirected more than ${maxRedirects} times. Use the final address of the page instead.`,
    );
    this.name = 'TooManyRedirectsError';
    this.maxRedirects = maxRedirects;
  }
}

export type ConnectionFailure = 'dns' | 'refused' | 'reset' | 'tls' | 'protocol' | 'other';

export class HttpConnectionError extends SafeHttpError {
  readonly reason: ConnectionFailure;
  /** The system or library error code, e.g. ENOTFOUND or DEPTH_ZERO_SELF_SIGNED_CERT. */
  readonly code?: string;

  constructor(
    url: string,
    reason: ConnectionFailure,
    message: string,
    options: { code?: string; cause?: unknown } = {},
  ) {
    super('connection', url, message, { cause: options.cause });
    this.name = 'HttpConnectionError';
    this.reason = reason;
    this.code = options.code;
  }
}

export const isSafeHttpError = (error: unknown): error is SafeHttpError =>
  error instanceof SafeHttpError;

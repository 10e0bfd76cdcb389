import type { Server, ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../core/config.ts';
import type { ErrorCode } from '../core/errors.ts';

type Timeouts = Pick<Config, 'INKSTREAM_HEADERS_TIMEOUT_MS' | 'INKSTREAM_REQUEST_TIMEOUT_MS'>;

/**
 * node:http's own limits on a slow client: the headers must arrive within the headers timeout and
 * the whole request within the request timeout, or the connection is answered 408 and closed.
 * Node checks them on an interval (30 s by default), so the interval is made a fraction of the
 * headers timeout for the timeouts to mean what they say.
 */
export function serverOptions(config: Timeouts): ServerOptions {
  const headersTimeout = config.INKSTREAM_HEADERS_TIMEOUT_MS;
  const requestTimeout = config.INKSTREAM_REQUEST_TIMEOUT_MS;
  if (headersTimeout > requestTimeout) {
    throw new Error(
      `Invalid configuration: INKSTREAM_HEADERS_TIMEOUT_MS (${headersTimeout}) must not exceed INKSTREAM_REQUEST_TIMEOUT_MS (${requestTimeout})`,
    );
  }
  return {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.min(1000, Math.ceil(headersTimeout / 4)),
  };
}

/** What node:http answers on its own (no request to hand to the application), in the API's error shape. */
const CLIENT_ERRORS: Record<
  string,
  { status: number; reason: string; code: ErrorCode; message: string }
> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    code: 'request_timeout',
    message: 'The request did not arrive in time.',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: 'bad_request',
    message: 'The request headers are too large.',
  },
};
const MALFORMED = {
  status: 400,
  reason: 'Bad Request',
  code: 'bad_request' as const,
  message: 'The request is not valid HTTP.',
};

/** Answers node:http's client errors (timeouts, malformed requests) with the API's headers and error body, then closes. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inResponse =
      (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (error.code === 'ECONNRESET' || !socket.writable || inResponse) {
      socket.destroy();
      return;
    }
    const answer = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify({ error: { code: answer.code, message: answer.message } });
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
}

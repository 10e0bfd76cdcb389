import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export type LocalServer = {
  /** e.g. http://127.0.0.1:43121 (no trailing slash). */
  origin: string;
  port: number;
  /** TCP connections accepted so far: keep-alive reuse shows as fewer connections than requests. */
  connectionCount(): number;
  close(): Promise<void>;
};

/**
 * Starts an HTTP (or, given a key and certificate, HTTPS) server on 127.0.0.1 and a free port.
 * `close` also ends kept-alive and hanging connections, so tests never wait for them.
 */
export async function startHttpServer(
  handler: RequestHandler,
  options: { tls?: { key: string; cert: string } } = {},
): Promise<LocalServer> {
  const server = options.tls
    ? https.createServer(options.tls, handler)
    : http.createServer(handler);
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    connectionCount: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

import type { IncomingMessage } from 'node:http';
import type { Config } from '../../core/config.ts';
import { AppError } from '../../core/errors.ts';
import { plainAddress, type IsTrustedProxy } from '../../http/clientAddress.ts';

/** Paths that answer any Host: container probes ask `localhost`, API clients may use any name. */
const ANY_HOST = /^\/(?:api\/v1(?:[/?]|$)|healthz(?:\?|$)|readyz(?:\?|$))/i;

/**
 * With INKSTREAM_PUBLIC_URL set, the web application and /app/api answer only requests addressed
 * to it: a page served under another name (a DNS-rebinding attacker's, which resolves to this
 * server) would be same-origin with the attacker's scripts. The Host header is taken as sent, or
 * X-Forwarded-Host when the request comes through a trusted proxy. /api/v1 and the health checks
 * answer any Host. Without INKSTREAM_PUBLIC_URL nothing is checked (docs/security.md).
 */
export function publicHostCheck(
  config: Pick<Config, 'INKSTREAM_PUBLIC_URL'>,
  isTrustedProxy: IsTrustedProxy,
): (req: IncomingMessage) => void {
  if (!config.INKSTREAM_PUBLIC_URL) return () => {};
  const publicUrl = new URL(config.INKSTREAM_PUBLIC_URL);
  const expected = publicUrl.host.toLowerCase();
  return (req) => {
    if (ANY_HOST.test(req.url ?? '/')) return;
    const forwarded = req.headers['x-forwarded-host'];
    const host =
      typeof forwarded === 'string' && isTrustedProxy(plainAddress(req.socket.remoteAddress))
        ? forwarded.split(',')[0].trim()
        : req.headers.host;
    if (host?.toLowerCase() === expected) return;
    throw new AppError(
      'forbidden',
      `This server's application answers only at ${publicUrl.origin} (INKSTREAM_PUBLIC_URL): open it there.`,
    );
  };
}

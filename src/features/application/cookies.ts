import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Config } from '../../core/config.ts';

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (no cross-site POST carries it).
 * Over HTTPS it is also Secure, with the `__Host-` prefix, which browsers accept only from a secure
 * origin, for path /, without a Domain: no subdomain can set or shadow it.
 */
export function overHttps(
  req: IncomingMessage,
  config: Pick<Config, 'INKSTREAM_PUBLIC_URL'>,
): boolean {
  return (
    (req.socket as TLSSocket).encrypted === true ||
    config.INKSTREAM_PUBLIC_URL?.startsWith('https://') === true
  );
}

const cookieName = (secure: boolean) => (secure ? '__Host-inkstream_session' : 'inkstream_session');

export function sessionCookie(token: string, secure: boolean, maxAgeSeconds: number): string {
  return `${cookieName(secure)}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export const clearedSessionCookie = (secure: boolean): string => sessionCookie('', secure, 0);

/**
 * The session cookie's token; null without one, and null when the request carries the cookie more
 * than once. Cookies do not keep ports apart: over plain HTTP another service on the same host
 * can set an `inkstream_session` of its own (its account's) beside the member's, and a browser
 * sends both in an order the server cannot trust. Two are taken as signed out, never as either.
 */
export function sessionTokenOf(req: IncomingMessage, secure: boolean): string | null {
  const name = cookieName(secure);
  let token: string | null = null;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    if (token !== null) return null;
    token = value.join('=');
  }
  return token;
}

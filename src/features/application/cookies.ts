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

export function sessionTokenOf(req: IncomingMessage, secure: boolean): string | null {
  const name = cookieName(secure);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}

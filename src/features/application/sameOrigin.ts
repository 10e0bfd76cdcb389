import type { IncomingMessage } from 'node:http';
import type { Config } from '../../core/config.ts';
import { AppError } from '../../core/errors.ts';

const crossSite = () =>
  new AppError(
    'forbidden',
    "Cross-site request refused: the application's own endpoints answer only pages of this site.",
  );

/**
 * The first CSRF defence of an unsafe request (the second is the session's token header): a
 * browser says where a request comes from in Sec-Fetch-Site and Origin; anything but this site is
 * refused before the body is read. A client that sends neither (curl) is no browser that could be
 * tricked into sending a cookie, and still needs the token on signed-in endpoints.
 */
export function requireSameOrigin(
  req: IncomingMessage,
  secure: boolean,
  config: Pick<Config, 'INKSTREAM_PUBLIC_URL'>,
): void {
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin') throw crossSite();
  const origin = req.headers.origin;
  if (origin === undefined) return;
  // With a public address configured it is the only origin: the Host header is the requester's
  // to choose (a rebinding attacker's name), so it is trusted only when nothing else says.
  const own = config.INKSTREAM_PUBLIC_URL
    ? new URL(config.INKSTREAM_PUBLIC_URL).origin
    : req.headers.host && `${secure ? 'https' : 'http'}://${req.headers.host}`;
  if (!own || own.toLowerCase() !== origin.toLowerCase()) throw crossSite();
}

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
  const own = new Set<string>();
  if (req.headers.host) own.add(`${secure ? 'https' : 'http'}://${req.headers.host}`.toLowerCase());
  if (config.INKSTREAM_PUBLIC_URL)
    own.add(new URL(config.INKSTREAM_PUBLIC_URL).origin.toLowerCase());
  if (!own.has(origin.toLowerCase())) throw crossSite();
}

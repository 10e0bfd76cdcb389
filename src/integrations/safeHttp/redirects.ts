import type { AddressPolicy } from './addressPolicy.ts';
import { InvalidUrlError } from './errors.ts';
import { parseRequestUrl } from './urlPolicy.ts';

export type Hop = {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
};

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const credentialHeaders = ['authorization', 'cookie', 'proxy-authorization'];
const bodyHeaders = ['content-type', 'content-length', 'content-encoding'];

export const isRedirect = (status: number, location: string | undefined): location is string =>
  redirectStatuses.has(status) && typeof location === 'string' && location.length > 0;

/**
 * The request to send after a redirect, as browsers do it: 303 (and 301/302 after a POST) become
 * a GET without body; credentials are not forwarded to another origin. The target goes through
 * the same URL checks as the first URL, and its address through the same lookup guard.
 */
export function nextHop(
  current: Hop,
  status: number,
  location: string,
  policy: AddressPolicy,
): Hop {
  let target: URL;
  try {
    target = new URL(location, current.url);
  } catch {
    throw new InvalidUrlError(
      location,
      `${current.url.href} redirected to an address that is not a valid URL`,
    );
  }
  const url = parseRequestUrl(target, policy);
  const becomesGet =
    (status === 303 && current.method !== 'HEAD') ||
    ((status === 301 || status === 302) && current.method === 'POST');
  const headers = { ...current.headers };
  if (url.origin !== current.url.origin) for (const name of credentialHeaders) delete headers[name];
  if (becomesGet) for (const name of bodyHeaders) delete headers[name];
  return {
    url,
    method: becomesGet ? 'GET' : current.method,
    headers,
    body: becomesGet ? undefined : current.body,
  };
}

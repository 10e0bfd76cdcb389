import { isIP } from 'node:net';
import type { AddressPolicy } from './addressPolicy.ts';
import { BlockedAddressError, InvalidUrlError } from './errors.ts';

/**
 * Parses and checks a URL before any connection: http(s) only, no credentials, and a host that is
 * an IP literal must be allowed by the policy (hostnames are checked when they resolve).
 */
export function parseRequestUrl(input: string | URL, policy: AddressPolicy): URL {
  const text = String(input);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidUrlError(
      text,
      'it is not an absolute URL (expected something like https://example.com/page)',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidUrlError(
      text,
      `only http and https are supported, not ${url.protocol.replace(/:$/, '')}`,
    );
  }
  if (url.username || url.password) {
    throw new InvalidUrlError(
      text,
      'URLs with a user name or password are not accepted; send credentials in a header instead',
    );
  }
  if (!url.hostname) throw new InvalidUrlError(text, 'it has no host name');
  // The WHATWG parser already turned shorthand like http://2130706433/ into 127.0.0.1.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    const range = policy.blockedRange(host);
    if (range) throw new BlockedAddressError(url.href, { hostname: host, address: host, range });
  }
  url.hash = '';
  return url;
}

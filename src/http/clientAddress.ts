import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** IPv4 as a dual-stack socket reports it (`::ffff:10.0.0.1`) as plain IPv4. */
export function plainAddress(address: string | undefined): string {
  if (address === undefined) return '';
  return address.toLowerCase().startsWith('::ffff:') && isIPv4(address.slice(7))
    ? address.slice(7)
    : address;
}

export type IsTrustedProxy = (address: string) => boolean;

/** INKSTREAM_TRUSTED_PROXIES (addresses and CIDR subnets, validated by the config) as a test. */
export function trustedProxies(entries: readonly string[]): IsTrustedProxy {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) =>
    isIPv4(address) ? list.check(address, 'ipv4') : isIPv6(address) && list.check(address, 'ipv6');
}

/**
 * The address of the client a request comes from. X-Forwarded-For is believed only from a
 * trusted proxy: walking it from the right (the hop that proxy saw last) past any other trusted
 * proxies, the first address that is not one is the client; whatever a client wrote further
 * left is never reached.
 */
export function clientAddressOf(req: IncomingMessage, isTrusted: IsTrustedProxy): string {
  let client = plainAddress(req.socket.remoteAddress);
  if (!isTrusted(client)) return client;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  while (hops.length > 0 && isTrusted(client)) client = plainAddress(hops.pop());
  return client;
}

/**
 * What one client is counted as: its IPv4 address, or the /64 network of an IPv6 address (one
 * subscriber's share of addresses, which it can use all of).
 */
export function clientKey(address: string): string {
  if (!isIPv6(address)) return address;
  const groupsOf = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const [left, right] = address.split('%')[0].split('::');
  const head = groupsOf(left);
  const tail = right === undefined ? [] : groupsOf(right);
  const groups = [
    ...head,
    ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'),
    ...tail,
  ];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

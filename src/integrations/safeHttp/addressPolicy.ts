import { inCidr, parseCidr, parseIp, type Cidr, type IpBytes } from './ipAddress.ts';

/**
 * Which addresses outbound requests may reach: public unicast only. Ranges follow the IANA
 * special-purpose registries; for IPv6 only global unicast (2000::/3) is considered at all.
 */
const blockedIPv4: Array<[string, string]> = [
  ['0.0.0.0/8', '"this network" (0.0.0.0/8)'],
  ['10.0.0.0/8', 'private (RFC 1918)'],
  ['100.64.0.0/10', 'carrier-grade NAT (100.64.0.0/10)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local (this includes cloud metadata at 169.254.169.254)'],
  ['172.16.0.0/12', 'private (RFC 1918)'],
  ['192.0.0.0/24', 'IETF protocol assignment'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved (6to4 relay)'],
  ['192.168.0.0/16', 'private (RFC 1918)'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

const blockedIPv6: Array<[string, string]> = [
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['2001::/23', 'IETF protocol assignment (includes Teredo)'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
];

const globalUnicast = parseCidr('2000::/3');
const ipv4Mapped = parseCidr('::ffff:0:0/96');
const nat64 = parseCidr('64:ff9b::/96');
const sixToFour = parseCidr('2002::/16');

const ipv4Ranges = blockedIPv4.map(([cidr, label]) => ({ range: parseCidr(cidr), label }));
const ipv6Ranges = blockedIPv6.map(([cidr, label]) => ({ range: parseCidr(cidr), label }));

const ipv6Label = (bytes: IpBytes): string => {
  if (bytes.every((b) => b === 0)) return 'unspecified (::)';
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback';
  if (bytes[0] === 0xff) return 'multicast';
  if ((bytes[0] & 0xfe) === 0xfc) return 'unique local (fc00::/7)';
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0x80) return 'IPv6 link-local (fe80::/10)';
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0xc0) return 'IPv6 site-local (fec0::/10)';
  return 'reserved IPv6';
};

export type AddressPolicy = {
  /** The range label when the address may not be reached, otherwise null. */
  blockedRange(address: string): string | null;
};

/**
 * Builds the policy. `allowedRanges` are CIDRs exempt from the check (e.g. one internal webhook
 * receiver) without opening every private range.
 */
export function createAddressPolicy(
  options: { allowPrivateAddresses?: boolean; allowedRanges?: readonly string[] } = {},
): AddressPolicy {
  const exempt: Cidr[] = (options.allowedRanges ?? []).map(parseCidr);
  const isExempt = (bytes: IpBytes) => exempt.some((range) => inCidr(bytes, range));

  const check = (bytes: IpBytes): string | null => {
    if (isExempt(bytes)) return null;
    if (bytes.length === 4)
      return ipv4Ranges.find(({ range }) => inCidr(bytes, range))?.label ?? null;
    // Addresses that carry an IPv4 address are judged by the address they reach.
    if (inCidr(bytes, ipv4Mapped) || inCidr(bytes, nat64)) return check(bytes.slice(12));
    if (inCidr(bytes, sixToFour)) return check(bytes.slice(2, 6));
    if (!inCidr(bytes, globalUnicast)) return ipv6Label(bytes);
    return ipv6Ranges.find(({ range }) => inCidr(bytes, range))?.label ?? null;
  };

  return {
    blockedRange(address) {
      if (options.allowPrivateAddresses) return null;
      const bytes = parseIp(address);
      return bytes ? check(bytes) : 'unparseable';
    },
  };
}

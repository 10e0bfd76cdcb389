import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
export type IpBytes = Uint8Array;
export type Cidr = { bytes: IpBytes; prefix: number };

/** Parses a textual IPv4 or IPv6 address (brackets and a zone id allowed); null when it is not one. */
export function parseIp(text: string): IpBytes | null {
  const bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(bare)) return Uint8Array.from(bare.split('.').map(Number));
  if (isIPv6(bare)) return parseIPv6(bare);
  return null;
}

function parseIPv6(text: string): IpBytes {
  const bytes = new Uint8Array(16);
  let tail = text;
  let embedded: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    embedded = text
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    tail = text.slice(0, lastColon + 1) + '0:0';
  }
  const [head, rest] = tail.includes('::') ? tail.split('::') : [tail, undefined];
  const headGroups = head ? head.split(':') : [];
  const restGroups = rest ? rest.split(':') : [];
  const groups =
    rest === undefined
      ? headGroups
      : [
          ...headGroups,
          ...Array(8 - headGroups.length - restGroups.length).fill('0'),
          ...restGroups,
        ];
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  if (embedded.length === 4) bytes.set(embedded, 12);
  return bytes;
}

export function parseCidr(text: string): Cidr {
  const [address, prefixText] = text.split('/');
  const bytes = parseIp(address);
  if (!bytes) throw new Error(`"${text}" is not an IP address or CIDR range`);
  const prefix = prefixText === undefined ? bytes.length * 8 : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bytes.length * 8) {
    throw new Error(`"${text}" has an invalid prefix length`);
  }
  return { bytes, prefix };
}

export function inCidr(address: IpBytes, range: Cidr): boolean {
  if (address.length !== range.bytes.length) return false;
  const fullBytes = Math.floor(range.prefix / 8);
  for (let i = 0; i < fullBytes; i++) if (address[i] !== range.bytes[i]) return false;
  const remainingBits = range.prefix % 8;
  if (remainingBits === 0) return true;
  const mask = (0xff << (8 - remainingBits)) & 0xff;
  return (address[fullBytes] & mask) === (range.bytes[fullBytes] & mask);
}

import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createAddressPolicy } from '../../../src/integrations/safeHttp/addressPolicy.ts';
import { parseIp } from '../../../src/integrations/safeHttp/ipAddress.ts';

const policy = createAddressPolicy();

describe('addresses that are never reached', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'this network'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['2001:db8::1', 'documentation'],
    ['[::1]', 'loopback'],
  ])('%s is refused as %s', (address, label) => {
    expect(policy.blockedRange(address)).toContain(label);
  });
});

test.each([
  '93.184.216.34',
  '8.8.8.8',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700::1111',
  '::ffff:8.8.8.8',
  '2002:0808:0808::1',
])('%s is public', (address) => {
  expect(policy.blockedRange(address)).toBeNull();
});

test('anything that is not an IP address is refused', () => {
  expect(policy.blockedRange('localhost')).not.toBeNull();
});

test('allowPrivateAddresses lifts the check', () => {
  expect(createAddressPolicy({ allowPrivateAddresses: true }).blockedRange('127.0.0.1')).toBeNull();
});

test('an allowed range opens only that range, also through its IPv4-mapped form', () => {
  const narrow = createAddressPolicy({ allowedRanges: ['127.0.0.1/32'] });
  expect(narrow.blockedRange('127.0.0.1')).toBeNull();
  expect(narrow.blockedRange('::ffff:127.0.0.1')).toBeNull();
  expect(narrow.blockedRange('127.0.0.2')).toContain('loopback');
  expect(narrow.blockedRange('10.0.0.1')).toContain('private');
});

test('every address in 10/8, 172.16/12 and 192.168/16 is refused, in IPv4 and IPv4-mapped IPv6 form', () => {
  const octet = fc.integer({ min: 0, max: 255 });
  const privateV4 = fc.oneof(
    fc.tuple(octet, octet, octet).map(([b, c, d]) => `10.${b}.${c}.${d}`),
    fc
      .tuple(fc.integer({ min: 16, max: 31 }), octet, octet)
      .map(([b, c, d]) => `172.${b}.${c}.${d}`),
    fc.tuple(octet, octet).map(([c, d]) => `192.168.${c}.${d}`),
  );
  fc.assert(
    fc.property(
      privateV4,
      (address) =>
        policy.blockedRange(address) !== null && policy.blockedRange(`::ffff:${address}`) !== null,
    ),
  );
});

test('IPv6 text forms parse to the same bytes', () => {
  expect(parseIp('::ffff:127.0.0.1')).toEqual(parseIp('0:0:0:0:0:ffff:7f00:1'));
  expect(parseIp('2001:db8::')).toEqual(parseIp('2001:0db8:0:0:0:0:0:0'));
  expect(parseIp('example.com')).toBeNull();
});

import { expect, test } from 'vitest';
import { loadConfig } from '../../src/core/config.ts';
import { clientKey, plainAddress, trustedProxies } from '../../src/http/clientAddress.ts';

test('an IPv6 client is counted by its /64, whatever the spelling; IPv4, mapped or not, by its address', () => {
  expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
  expect(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
  expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
  expect(clientKey('::1')).toBe('0:0:0:0::/64');
  expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  expect(clientKey(plainAddress('::ffff:192.0.2.7'))).toBe('192.0.2.7');
});

test('trusted proxies match exact addresses and subnets of either family, and nothing when none are set', () => {
  const trusted = trustedProxies(['10.0.0.0/8', '192.0.2.1', 'fd00::/8']);
  expect(['10.9.8.7', '192.0.2.1', 'fd12::3'].map(trusted)).toEqual([true, true, true]);
  expect(['11.0.0.1', '192.0.2.2', '2001:db8::1', 'not-an-ip'].map(trusted)).toEqual([
    false,
    false,
    false,
    false,
  ]);
  expect(trustedProxies([])('127.0.0.1')).toBe(false);
});

test('a trusted-proxy entry that is not an address or subnet stops the start, naming the variable', () => {
  for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/2']) {
    expect(() => loadConfig({ INKSTREAM_TRUSTED_PROXIES: bad })).toThrow(
      /INKSTREAM_TRUSTED_PROXIES/,
    );
  }
  expect(
    loadConfig({ INKSTREAM_TRUSTED_PROXIES: ' 10.0.0.0/8 , ::1 ' }).INKSTREAM_TRUSTED_PROXIES,
  ).toEqual(['10.0.0.0/8', '::1']);
});

import { expect, test } from 'vitest';
import {
  createDestinationPolicy,
  type ResolveHost,
} from '../../../src/integrations/safeHttp/index.ts';

const pointing =
  (answers: Record<string, string[]>): ResolveHost =>
  async (hostname) => {
    const addresses = answers[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

test('a refused name tells the log what it resolved to, and the tenant only that it is not public', async () => {
  const refused: unknown[] = [];
  const policy = createDestinationPolicy({
    resolveHost: pointing({ 'intranet.example': ['10.9.8.7'] }),
    onRefused: (detail) => refused.push(detail),
  });
  const error = await policy.check('https://intranet.example/hook').catch((e) => e);
  expect(error).toMatchObject({ kind: 'blocked_address', url: 'https://intranet.example/hook' });
  expect(error.message).toMatch(
    /^Refused to connect: intranet\.example does not resolve to a public address\./,
  );
  expect(error.message).not.toMatch(/10\.9\.8\.7|RFC 1918|private \(/);
  expect(refused).toEqual([
    { hostname: 'intranet.example', address: '10.9.8.7', range: 'private (RFC 1918)' },
  ]);
});

test('the connection-time judgement is the same function: localhost names are loopback whatever DNS says', () => {
  const policy = createDestinationPolicy({ resolveHost: pointing({}) });
  expect(policy.refusal('db.localhost', [{ address: '93.184.216.34', family: 4 }])).toMatchObject({
    range: 'loopback',
  });
  expect(policy.refusal('public.example', [{ address: '93.184.216.34', family: 4 }])).toBeNull();
});

test('a name that does not resolve, or not in time, is accepted at registration', async () => {
  const silent: ResolveHost = () => new Promise(() => {});
  expect(
    (await createDestinationPolicy({ resolveHost: pointing({}) }).check('https://soon.example/'))
      .hostname,
  ).toBe('soon.example');
  expect(
    (
      await createDestinationPolicy({ resolveHost: silent, resolveTimeoutMs: 20 }).check(
        'https://slow-dns.example/',
      )
    ).hostname,
  ).toBe('slow-dns.example');
});

test('allowing private addresses lifts the check without asking DNS', async () => {
  const asked: string[] = [];
  const policy = createDestinationPolicy({
    allowPrivateAddresses: true,
    resolveHost: async (name) => {
      asked.push(name);
      return [];
    },
  });
  await policy.check('https://localhost:8443/hook');
  await policy.check('https://10.0.0.1/hook');
  expect(asked).toEqual([]);
});

import { expect, test } from 'vitest';
import type { AccountEvent } from '../../../src/domain/accounts/account.ts';
import { accountStream, MAX_KEYS_PER_ACCOUNT } from '../../../src/domain/accounts/decide.ts';
import { given } from '../../support/decider.ts';

const at = '2026-03-10T09:00:00.000Z';
const later = (hours: number) => new Date(Date.parse(at) + hours * 3_600_000).toISOString();
const key = (n: number) => ({ keyId: `key_${n}`, name: `k${n}`, hash: `h${n}`, prefix: `p${n}` });
const created = (n: number): AccountEvent => ({
  type: 'ApiKeyCreated',
  data: { accountId: 'acc_1', ...key(n), at },
});
const revoked = (n: number, when: string): AccountEvent => ({
  type: 'ApiKeyRevoked',
  data: { accountId: 'acc_1', keyId: `key_${n}`, reason: 'revoked', replacedBy: null, at: when },
});
const history = (count: number): AccountEvent[] => [
  { type: 'AccountCreated', data: { accountId: 'acc_1', name: 'acme', plan: 'free', at } },
  ...Array.from({ length: count }, (_, n) => created(n)),
];
const create = (n: number, when = at) => ({
  type: 'CreateApiKey' as const,
  accountId: 'acc_1',
  name: 'acme',
  plan: 'free' as const,
  key: key(n),
  at: when,
});

test(`an account holds at most ${MAX_KEYS_PER_ACCOUNT} keys: one more is refused, a rotation too`, () => {
  given(accountStream, ...history(MAX_KEYS_PER_ACCOUNT - 1))
    .when(create(1000))
    .thenYields({ type: 'ApiKeyCreated', data: { accountId: 'acc_1', ...key(1000), at } });
  given(accountStream, ...history(MAX_KEYS_PER_ACCOUNT))
    .when(create(1000))
    .thenFails('conflict');
  given(accountStream, ...history(MAX_KEYS_PER_ACCOUNT))
    .when({ type: 'RotateApiKey', keyId: 'key_0', key: key(1000), at })
    .thenFails('conflict');
});

test('keys revoked within the last day still count, so a create-and-revoke loop is held; older ones do not', () => {
  const full = history(MAX_KEYS_PER_ACCOUNT);
  const revokedNow = [...full, revoked(0, later(1)), revoked(1, later(1))];
  given(accountStream, ...revokedNow)
    .when(create(1000, later(2)))
    .thenFails('conflict');
  const state = given(accountStream, ...revokedNow).state;
  expect(state.status).toBe('active');
  given(accountStream, ...revokedNow)
    .when(create(1000, later(26)))
    .thenYields({
      type: 'ApiKeyCreated',
      data: { accountId: 'acc_1', ...key(1000), at: later(26) },
    });
});

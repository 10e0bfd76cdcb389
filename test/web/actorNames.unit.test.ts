import { expect, test } from 'vitest';
import { describeActor } from '../../web/src/audit/history.ts';

test('a member acting on an article is shown by name; one the account no longer has, by id', () => {
  const members = new Map([['mbr_01', 'Olga Owner']]);
  expect(describeActor({ kind: 'member', memberId: 'mbr_01' }, members)).toBe('Olga Owner');
  expect(describeActor({ kind: 'member', memberId: 'mbr_02' }, members)).toBe('member mbr_02');
  expect(describeActor({ kind: 'api_key', keyId: 'key_1', keyName: 'build' })).toBe(
    'API key "build"',
  );
});

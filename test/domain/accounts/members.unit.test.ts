import { expect, test } from 'vitest';
import { isAppError } from '../../../src/core/errors.ts';
import { accountStream, type AccountCommand } from '../../../src/domain/accounts/decide.ts';
import type { Account, AccountEvent } from '../../../src/domain/accounts/account.ts';

const at = '2026-03-10T09:00:00.000Z';
const created: AccountEvent = {
  type: 'AccountCreated',
  data: { accountId: 'acc_1', name: 'acme', plan: 'free', at },
};

function given(...commands: AccountCommand[]): { state: Account; events: AccountEvent[] } {
  let state = accountStream.evolve(accountStream.initial(), created);
  const events: AccountEvent[] = [];
  for (const command of commands) {
    for (const event of accountStream.decide(command, state)) {
      events.push(event);
      state = accountStream.evolve(state, event);
    }
  }
  return { state, events };
}

const refusal = (state: Account, command: AccountCommand): string => {
  try {
    accountStream.decide(command, state);
  } catch (error) {
    if (isAppError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
};

const invite = (
  memberId: string,
  role: 'owner' | 'editor' | 'viewer' = 'editor',
): AccountCommand => ({ type: 'InviteMember', memberId, role, at });
const setPassword = (memberId: string, linkIssuedAt: number): AccountCommand => ({
  type: 'SetMemberPassword',
  memberId,
  linkIssuedAt,
  at,
});

test('member events carry ids and roles only', () => {
  const { events } = given(invite('mbr_1', 'owner'), setPassword('mbr_1', 0), {
    type: 'ChangeMemberRole',
    memberId: 'mbr_1',
    role: 'owner',
    at,
  });
  for (const event of events)
    expect(Object.keys(event.data).sort()).toEqual(
      expect.arrayContaining(['accountId', 'memberId', 'at']),
    );
  expect(events.flatMap((event) => Object.keys(event.data))).not.toEqual(
    expect.arrayContaining(['email']),
  );
  expect(events.map((event) => event.type)).toEqual(['MemberInvited', 'MemberJoined']); // the same role again decides nothing
});

test('a link works once: it names the password count it was made at, and the first use moves it', () => {
  const { state } = given(invite('mbr_1', 'owner'), setPassword('mbr_1', 0));
  expect(refusal(state, setPassword('mbr_1', 0))).toMatch(
    /^invalid_state: This link was already used/,
  );
  const { events } = given(
    invite('mbr_1', 'owner'),
    setPassword('mbr_1', 0),
    setPassword('mbr_1', 1),
  );
  expect(events.at(-1)?.type).toBe('MemberPasswordChanged');
});

test('the last active owner can be neither demoted nor removed; with a second owner both can', () => {
  const alone = given(invite('mbr_1', 'owner'), setPassword('mbr_1', 0)).state;
  expect(
    refusal(alone, { type: 'ChangeMemberRole', memberId: 'mbr_1', role: 'viewer', at }),
  ).toMatch(/last owner/);
  expect(refusal(alone, { type: 'RemoveMember', memberId: 'mbr_1', at })).toMatch(/last owner/);
  const { state } = given(
    invite('mbr_1', 'owner'),
    setPassword('mbr_1', 0),
    invite('mbr_2', 'owner'),
    setPassword('mbr_2', 0),
    { type: 'ChangeMemberRole', memberId: 'mbr_1', role: 'viewer', at },
    { type: 'RemoveMember', memberId: 'mbr_1', at },
  );
  expect(state.status === 'active' && state.members).toEqual([
    { memberId: 'mbr_2', role: 'owner', status: 'active', credentials: 1 },
  ]);
});

test('commands about a member the account does not have are 404', () => {
  const { state } = given();
  expect(refusal(state, { type: 'RemoveMember', memberId: 'mbr_x', at })).toMatch(/^not_found/);
  expect(refusal(state, setPassword('mbr_x', 0))).toMatch(/^not_found/);
});

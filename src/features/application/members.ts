import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import type { Actor, StoredEvent } from '../../eventstore/port.ts';
import { accountStream } from '../../domain/accounts/decide.ts';
import { isMemberEvent, type MemberRole } from '../../domain/accounts/members.ts';
import { activeAccount, commandContextFor, memberOf } from './accountState.ts';
import {
  emailId,
  ensureApplicationCollections,
  findAllBy,
  MEMBER_EMAILS,
  MEMBER_LINKS,
  MEMBER_PROFILES,
  type EmailClaim,
  type MemberProfile,
} from './collections.ts';
import { issueLink } from './links.ts';
import { endAccessTokensOf, endAllSessionsOf } from './sessions.ts';

type MembersPlatform = Pick<
  Platform,
  'eventStore' | 'readStore' | 'commands' | 'clock' | 'ids' | 'config'
>;

export type MemberView = {
  id: string;
  email: string | null;
  name: string | null;
  role: MemberRole;
  status: 'invited' | 'active';
  invitedAt: string | null;
  joinedAt: string | null;
};

/**
 * Claims an email for a member: one document per email, inserted only if absent, so two invites
 * of one address cannot both win. Emails are unique across the installation (docs/application.md).
 */
export async function claimEmail(
  platform: Pick<Platform, 'readStore'>,
  email: string,
  memberId: string,
  accountId: string,
): Promise<void> {
  const id = emailId(email);
  await platform.readStore.commit([
    { kind: 'insert_if_absent', collection: MEMBER_EMAILS, id, doc: { id, memberId, accountId } },
  ]);
  const claim = await platform.readStore.get<EmailClaim>(MEMBER_EMAILS, id);
  if (claim?.memberId !== memberId) {
    throw new AppError(
      'conflict',
      'This email already belongs to a member of an Inkstream account here: sign in with it, or ask for an invitation to another address.',
      { details: [{ path: 'body.email', message: 'already a member' }] },
    );
  }
}

export async function inviteMember(
  platform: MembersPlatform,
  input: {
    accountId: string;
    email: string | null;
    name?: string | null;
    role: MemberRole;
    actor: Actor;
    requestId: string;
  },
) {
  await ensureApplicationCollections(platform.readStore);
  const memberId = platform.ids.next('mbr');
  const at = platform.clock.now();
  // The address is claimed when the person accepts (passwordLinks.ts), not here: an invitation's
  // answer says nothing of other accounts (no oracle of who is a member where), and an account
  // cannot squat an address before the person's real employer invites it. Only a member of this
  // same account, whom the owner sees in the list anyway, is refused at once.
  if (input.email) {
    const claim = await platform.readStore.get<EmailClaim>(MEMBER_EMAILS, emailId(input.email));
    if (claim?.accountId === input.accountId)
      throw new AppError('conflict', 'This email already belongs to a member of this account.', {
        details: [{ path: 'body.email', message: 'already a member' }],
      });
  }
  const profile: MemberProfile = {
    id: memberId,
    accountId: input.accountId,
    email: input.email,
    name: input.name ?? null,
    passwordHash: null,
  };
  await platform.readStore.save(MEMBER_PROFILES, profile);
  try {
    await platform.commands.execute(
      accountStream,
      input.accountId,
      { type: 'InviteMember', memberId, role: input.role, at },
      commandContextFor(input.accountId, input.actor, input.requestId, `invite:${memberId}`),
    );
  } catch (error) {
    await erasePersonalData(platform, memberId);
    throw error;
  }
  const link = await issueLink(platform, { accountId: input.accountId, memberId, credentials: 0 });
  const member: MemberView = {
    id: memberId,
    email: input.email,
    name: profile.name,
    role: input.role,
    status: 'invited',
    invitedAt: at,
    joinedAt: null,
  };
  return { member, link };
}

/** When each member was invited and joined, from the account's stream (the member record keeps no times). */
function memberDates(
  events: readonly StoredEvent[],
): Map<string, { invitedAt: string | null; joinedAt: string | null }> {
  const dates = new Map<string, { invitedAt: string | null; joinedAt: string | null }>();
  for (const event of events) {
    if (!isMemberEvent(event)) continue;
    const { memberId, at } = event.data;
    if (event.type === 'MemberInvited') dates.set(memberId, { invitedAt: at, joinedAt: null });
    if (event.type === 'MemberJoined')
      dates.set(memberId, { invitedAt: dates.get(memberId)?.invitedAt ?? null, joinedAt: at });
  }
  return dates;
}

export async function listMembers(
  platform: Pick<Platform, 'eventStore' | 'readStore'>,
  accountId: string,
): Promise<MemberView[]> {
  const { account, events } = await activeAccount(platform, accountId);
  const dates = memberDates(events);
  await ensureApplicationCollections(platform.readStore);
  const profiles = new Map(
    (
      await platform.readStore.getMany<MemberProfile>(
        MEMBER_PROFILES,
        account.members.map((m) => m.memberId),
      )
    ).map((p) => [p.id, p]),
  );
  return account.members.map((member) => {
    const profile = profiles.get(member.memberId);
    const { invitedAt = null, joinedAt = null } = dates.get(member.memberId) ?? {};
    return {
      id: member.memberId,
      email: profile?.email ?? null,
      name: profile?.name ?? null,
      role: member.role,
      status: member.status,
      invitedAt,
      joinedAt,
    };
  });
}

export async function changeMemberRole(
  platform: MembersPlatform,
  input: { accountId: string; memberId: string; role: MemberRole; actor: Actor; requestId: string },
): Promise<void> {
  await platform.commands.execute(
    accountStream,
    input.accountId,
    {
      type: 'ChangeMemberRole',
      memberId: input.memberId,
      role: input.role,
      at: platform.clock.now(),
    },
    commandContextFor(input.accountId, input.actor, input.requestId),
  );
  await endAccessTokensOf(platform, input.memberId);
}

/** The removal is an event (ids only); the person's email, name, password hash, sessions and links are deleted. */
export async function removeMember(
  platform: MembersPlatform,
  input: { accountId: string; memberId: string; actor: Actor; requestId: string },
): Promise<void> {
  memberOf((await activeAccount(platform, input.accountId)).account, input.memberId);
  await platform.commands.execute(
    accountStream,
    input.accountId,
    { type: 'RemoveMember', memberId: input.memberId, at: platform.clock.now() },
    commandContextFor(input.accountId, input.actor, input.requestId),
  );
  await erasePersonalData(platform, input.memberId);
}

async function erasePersonalData(
  platform: Pick<Platform, 'readStore'>,
  memberId: string,
): Promise<void> {
  await ensureApplicationCollections(platform.readStore);
  const profile = await platform.readStore.get<MemberProfile>(MEMBER_PROFILES, memberId);
  if (profile?.email) {
    const claim = await platform.readStore.get<EmailClaim>(MEMBER_EMAILS, emailId(profile.email));
    if (claim?.memberId === memberId) await platform.readStore.remove(MEMBER_EMAILS, claim.id);
  }
  await platform.readStore.remove(MEMBER_PROFILES, memberId);
  for (const link of await findAllBy(platform.readStore, MEMBER_LINKS, 'memberId', memberId))
    await platform.readStore.remove(MEMBER_LINKS, link.id);
  await endAllSessionsOf(platform, memberId);
}

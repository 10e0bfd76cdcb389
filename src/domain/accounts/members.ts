import type { EventNames } from '../../eventstore/handleCommand.ts';
import { AppError } from '../../core/errors.ts';

/**
 * The people of an account. Events carry member ids and roles only: emails, names and password
 * hashes live in an erasable table beside the log (features/application), so removing a member
 * erases their personal data without rewriting history.
 */
export const MEMBER_ROLES = ['owner', 'editor', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** `credentials` counts password settings: a one-time link names the count it was issued at, so it works once. */
export type MemberRecord = {
  memberId: string;
  role: MemberRole;
  status: 'invited' | 'active';
  credentials: number;
};

export type MemberEvent =
  | {
      type: 'MemberInvited';
      data: { accountId: string; memberId: string; role: MemberRole; at: string };
    }
  | { type: 'MemberJoined'; data: { accountId: string; memberId: string; at: string } }
  | { type: 'MemberPasswordChanged'; data: { accountId: string; memberId: string; at: string } }
  | {
      type: 'MemberRoleChanged';
      data: {
        accountId: string;
        memberId: string;
        role: MemberRole;
        previousRole: MemberRole;
        at: string;
      };
    }
  | { type: 'MemberRemoved'; data: { accountId: string; memberId: string; at: string } };

/** Every type of MemberEvent, as data: a read model skips (and logs) a type it does not know. */
export const MEMBER_EVENTS: EventNames<MemberEvent> = {
  MemberInvited: true,
  MemberJoined: true,
  MemberPasswordChanged: true,
  MemberRoleChanged: true,
  MemberRemoved: true,
};

export type MemberCommand =
  | { type: 'InviteMember'; memberId: string; role: MemberRole; at: string }
  /** Setting a password through a one-time link: the first one joins, later ones change it. */
  | { type: 'SetMemberPassword'; memberId: string; linkIssuedAt: number; at: string }
  | { type: 'ChangeMemberRole'; memberId: string; role: MemberRole; at: string }
  | { type: 'RemoveMember'; memberId: string; at: string };

export const isMemberEvent = (event: { type: string }): event is MemberEvent =>
  Object.hasOwn(MEMBER_EVENTS, event.type);

export function evolveMembers(
  members: readonly MemberRecord[],
  event: MemberEvent,
): MemberRecord[] {
  const update = (change: (member: MemberRecord) => MemberRecord) =>
    members.map((member) => (member.memberId === event.data.memberId ? change(member) : member));
  switch (event.type) {
    case 'MemberInvited':
      return [
        ...members,
        { memberId: event.data.memberId, role: event.data.role, status: 'invited', credentials: 0 },
      ];
    case 'MemberJoined':
    case 'MemberPasswordChanged':
      return update((member) => ({
        ...member,
        status: 'active',
        credentials: member.credentials + 1,
      }));
    case 'MemberRoleChanged':
      return update((member) => ({ ...member, role: event.data.role }));
    case 'MemberRemoved':
      return members.filter((member) => member.memberId !== event.data.memberId);
    default:
      return [...members];
  }
}

export function decideMember(
  command: MemberCommand,
  accountId: string,
  members: readonly MemberRecord[],
): MemberEvent[] {
  switch (command.type) {
    case 'InviteMember':
      if (members.some((member) => member.memberId === command.memberId)) return [];
      return [
        {
          type: 'MemberInvited',
          data: { accountId, memberId: command.memberId, role: command.role, at: command.at },
        },
      ];
    case 'SetMemberPassword': {
      const member = requireMember(members, command.memberId);
      if (member.credentials !== command.linkIssuedAt)
        throw new AppError(
          'invalid_state',
          'This link was already used, or a newer password was set since it was made. Ask an owner for a new link.',
        );
      const type = member.status === 'invited' ? 'MemberJoined' : 'MemberPasswordChanged';
      return [{ type, data: { accountId, memberId: member.memberId, at: command.at } }];
    }
    case 'ChangeMemberRole': {
      const member = requireMember(members, command.memberId);
      if (member.role === command.role) return [];
      if (member.role === 'owner') requireAnotherOwner(members, member.memberId, 'demote');
      return [
        {
          type: 'MemberRoleChanged',
          data: {
            accountId,
            memberId: member.memberId,
            role: command.role,
            previousRole: member.role,
            at: command.at,
          },
        },
      ];
    }
    case 'RemoveMember': {
      const member = requireMember(members, command.memberId);
      if (member.role === 'owner') requireAnotherOwner(members, member.memberId, 'remove');
      return [
        { type: 'MemberRemoved', data: { accountId, memberId: member.memberId, at: command.at } },
      ];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

function requireMember(members: readonly MemberRecord[], memberId: string): MemberRecord {
  const member = members.find((candidate) => candidate.memberId === memberId);
  if (!member) throw new AppError('not_found', `No member ${memberId} in this account.`);
  return member;
}

function requireAnotherOwner(
  members: readonly MemberRecord[],
  memberId: string,
  verb: string,
): void {
  const others = members.filter(
    (member) =>
      member.role === 'owner' && member.status === 'active' && member.memberId !== memberId,
  );
  if (others.length === 0)
    throw new AppError(
      'invalid_state',
      `Cannot ${verb} the account's last owner: make another member an owner first.`,
    );
}

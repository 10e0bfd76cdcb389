import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import type { Actor } from '../../eventstore/port.ts';
import { accountIdForName } from '../../domain/accounts/account.ts';
import type { MemberRole } from '../../domain/accounts/members.ts';
import { activeAccount, memberOf } from './accountState.ts';
import {
  emailId,
  ensureApplicationCollections,
  MEMBER_EMAILS,
  type EmailClaim,
} from './collections.ts';
import { issueLink } from './links.ts';
import { inviteMember } from './members.ts';

/** One-time links made by an administrator (the CLI) or by the first start, printed for a person to open. */
type LinkPlatform = Pick<
  Platform,
  'eventStore' | 'readStore' | 'commands' | 'clock' | 'ids' | 'config'
>;

/** `inkstream members invite`: the account must exist (keys create or the first start made it). */
export async function inviteByName(
  platform: LinkPlatform,
  input: { account: string; email: string; role: MemberRole; name?: string; actor: Actor },
) {
  const accountId = accountIdForName(input.account);
  await activeAccount(platform, accountId).catch(() => {
    throw new AppError('not_found', `No account named ${input.account}.`);
  });
  return inviteMember(platform, {
    accountId,
    email: input.email,
    name: input.name,
    role: input.role,
    actor: input.actor,
    requestId: platform.ids.next('cor'),
  });
}

/** `inkstream members reset-password`: a new link for the member with this email in this account. */
export async function resetLinkByName(
  platform: LinkPlatform,
  input: { account: string; email: string },
) {
  const accountId = accountIdForName(input.account);
  await ensureApplicationCollections(platform.readStore);
  const claim = await platform.readStore.get<EmailClaim>(MEMBER_EMAILS, emailId(input.email));
  if (!claim || claim.accountId !== accountId)
    throw new AppError('not_found', `No member with that email in account ${input.account}.`);
  const member = memberOf((await activeAccount(platform, accountId)).account, claim.memberId);
  return issueLink(platform, {
    accountId,
    memberId: member.memberId,
    credentials: member.credentials,
  });
}

/** First start: the `default` account's owner, without an email yet, and the link to set their password. */
export async function firstOwnerLink(platform: LinkPlatform, accountId: string): Promise<string> {
  const { link } = await inviteMember(platform, {
    accountId,
    email: null,
    role: 'owner',
    actor: { kind: 'system', worker: 'bootstrap' },
    requestId: platform.ids.next('cor'),
  });
  return `Sign in to the application: set the owner's password within 24 hours (the link works once):\n\n  ${link.url}\n\n`;
}

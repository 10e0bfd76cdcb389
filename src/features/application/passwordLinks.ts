import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import type { Actor } from '../../eventstore/port.ts';
import { accountIdForName } from '../../domain/accounts/account.ts';
import { accountStream } from '../../domain/accounts/decide.ts';
import type { MemberRole } from '../../domain/accounts/members.ts';
import { activeAccount, commandContextFor, memberOf } from './accountState.ts';
import { emailId, ensureApplicationCollections, MEMBER_EMAILS, MEMBER_LINKS, MEMBER_PROFILES, type EmailClaim, type MemberProfile } from './collections.ts';
import { currentLink, issueLink } from './links.ts';
import { claimEmail, inviteMember } from './members.ts';
import { checkPasswordPolicy, hashPassword } from './passwords.ts';
import { endSessions, sessionsOf } from './sessions.ts';

type LinkPlatform = Pick<Platform, 'eventStore' | 'readStore' | 'commands' | 'clock' | 'ids' | 'config'>;

/**
 * Redeems a one-time link: the member's password is set (the first time, they join), the link
 * is spent, and their other sessions end. A member without an email yet (the first owner) gives one.
 */
export async function setPasswordWithLink(
  platform: LinkPlatform, input: { token: string; password: string; email?: string; name?: string; requestId: string },
): Promise<{ email: string; accountName: string }> {
  const link = await currentLink(platform, input.token);
  checkPasswordPolicy(input.password);
  const profile = await platform.readStore.get<MemberProfile>(MEMBER_PROFILES, link.memberId);
  if (!profile) throw new AppError('not_found', 'This link is not valid: its member was removed.');
  const email = profile.email ?? input.email;
  if (!email) throw new AppError('validation_failed', 'Invalid request body: email: give the email you will sign in with.', { details: [{ path: 'body.email', message: 'required' }] });
  if (!profile.email) await claimEmail(platform, email, link.memberId, link.accountId);
  const passwordHash = await hashPassword(input.password);
  const result = await platform.commands.execute(accountStream, link.accountId,
    { type: 'SetMemberPassword', memberId: link.memberId, linkIssuedAt: link.credentials, at: platform.clock.now() },
    commandContextFor(link.accountId, { kind: 'member', memberId: link.memberId }, input.requestId));
  await platform.readStore.save(MEMBER_PROFILES, { ...profile, email, name: input.name?.trim() || profile.name, passwordHash });
  await platform.readStore.remove(MEMBER_LINKS, link.id);
  await endSessions(platform, await sessionsOf(platform, link.memberId));
  return { email, accountName: result.state.status === 'active' ? result.state.name : '' };
}

const cliActor = (): Actor => ({ kind: 'cli', user: process.env.USER ?? 'admin' });

/** `inkstream members invite`: the account must exist (keys create or the first start made it). */
export async function inviteByName(platform: LinkPlatform, input: { account: string; email: string; role: MemberRole; name?: string }) {
  const accountId = accountIdForName(input.account);
  await activeAccount(platform, accountId).catch(() => { throw new AppError('not_found', `No account named ${input.account}.`); });
  return inviteMember(platform, { accountId, email: input.email, name: input.name, role: input.role, actor: cliActor(), requestId: platform.ids.next('cor') });
}

/** `inkstream members reset-password`: a new link for the member with this email in this account. */
export async function resetLinkByName(platform: LinkPlatform, input: { account: string; email: string }) {
  const accountId = accountIdForName(input.account);
  await ensureApplicationCollections(platform.readStore);
  const claim = await platform.readStore.get<EmailClaim>(MEMBER_EMAILS, emailId(input.email));
  if (!claim || claim.accountId !== accountId) throw new AppError('not_found', `No member with that email in account ${input.account}.`);
  const member = memberOf((await activeAccount(platform, accountId)).account, claim.memberId);
  return issueLink(platform, { accountId, memberId: member.memberId, credentials: member.credentials });
}

/** First start: the `default` account's owner, without an email yet, and the link to set their password. */
export async function firstOwnerLink(platform: LinkPlatform, accountId: string): Promise<string> {
  const { link } = await inviteMember(platform, {
    accountId, email: null, role: 'owner', actor: { kind: 'system', worker: 'bootstrap' }, requestId: platform.ids.next('cor'),
  });
  return `Sign in to the application: set the owner's password within 24 hours (the link works once):\n\n  ${link.url}\n\n`;
}

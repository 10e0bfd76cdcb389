import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import { accountStream } from '../../domain/accounts/decide.ts';
import { commandContextFor } from './accountState.ts';
import {
  emailId,
  MEMBER_EMAILS,
  MEMBER_LINKS,
  MEMBER_PROFILES,
  type EmailClaim,
  type MemberProfile,
} from './collections.ts';
import { currentLink } from './links.ts';
import { claimEmail } from './members.ts';
import { checkPasswordPolicy, hashPassword } from './passwords.ts';
import { endSessions, sessionsOf } from './sessions.ts';
import { pairKey, type SignInThrottle } from './signIn.ts';

type LinkPlatform = Pick<
  Platform,
  'eventStore' | 'readStore' | 'commands' | 'clock' | 'ids' | 'config'
>;

/**
 * Redeems a one-time link: the member's password is set (the first time, they join), the link
 * is spent, and their other sessions end. A member without an email yet (the first owner) gives one.
 */
export async function setPasswordWithLink(
  platform: LinkPlatform,
  input: { token: string; password: string; email?: string; name?: string; requestId: string },
  /** The sign-in budget of the redeemer's address for this email, cleared once the password is set. */
  throttle?: { signIn: SignInThrottle; address: string },
): Promise<{ email: string; accountName: string }> {
  const link = await currentLink(platform, input.token);
  await checkPasswordPolicy(input.password);
  const profile = await platform.readStore.get<MemberProfile>(MEMBER_PROFILES, link.memberId);
  if (!profile) throw new AppError('not_found', 'This link is not valid: its member was removed.');
  const email = profile.email ?? input.email;
  if (!email)
    throw new AppError(
      'validation_failed',
      'Invalid request body: email: give the email you will sign in with.',
      { details: [{ path: 'body.email', message: 'required' }] },
    );
  // The address is claimed on accepting: an invitation holds none (members.ts).
  const claim = await platform.readStore.get<EmailClaim>(MEMBER_EMAILS, emailId(email));
  const claiming = claim?.memberId !== link.memberId;
  if (claiming) await claimEmail(platform, email, link.memberId, link.accountId);
  const passwordHash = await hashPassword(input.password);
  const result = await platform.commands
    .execute(
      accountStream,
      link.accountId,
      {
        type: 'SetMemberPassword',
        memberId: link.memberId,
        linkIssuedAt: link.credentials,
        at: platform.clock.now(),
      },
      commandContextFor(
        link.accountId,
        { kind: 'member', memberId: link.memberId },
        input.requestId,
      ),
    )
    .catch(async (refused: unknown) => {
      // A refused redemption (the link spent by a racing tab) leaves no email claimed for nobody.
      if (claiming) await platform.readStore.remove(MEMBER_EMAILS, emailId(email));
      throw refused;
    });
  await platform.readStore.save(MEMBER_PROFILES, {
    ...profile,
    email,
    name: input.name?.trim() || profile.name,
    passwordHash,
  });
  await platform.readStore.remove(MEMBER_LINKS, link.id);
  await endSessions(platform, await sessionsOf(platform, link.memberId));
  // The refusal of too many attempts recommends a reset link: once used, the count starts over.
  if (throttle) await throttle.signIn.pair.delete(pairKey(email, throttle.address));
  return { email, accountName: result.state.status === 'active' ? result.state.name : '' };
}

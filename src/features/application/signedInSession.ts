import type { IncomingMessage } from 'node:http';
import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import { activeAccount } from './accountState.ts';
import type { SignedIn } from './appRoute.ts';
import { sessionTokenOf } from './cookies.ts';
import { endSessions, resumeSession } from './sessions.ts';

/**
 * The member a request's session cookie signs in, as the session and the account's stream say now;
 * 401 when there is no live session or its member is no longer active (their sessions then end).
 */
export async function signedInSession(
  platform: Pick<Platform, 'readStore' | 'eventStore' | 'clock' | 'ids'>,
  req: IncomingMessage,
  secure: boolean,
): Promise<SignedIn> {
  const token = sessionTokenOf(req, secure);
  const session = token ? await resumeSession(platform, token) : null;
  if (!session)
    throw new AppError(
      'unauthorized',
      'You are not signed in, or your session ended: sign in again.',
    );
  const { account, events } = await activeAccount(platform, session.accountId);
  const member = account.members.find((candidate) => candidate.memberId === session.memberId);
  if (!member || member.status !== 'active') {
    await endSessions(platform, [session]);
    throw new AppError('unauthorized', 'You are no longer a member of this account.');
  }
  return { session, account, events, member, actor: { kind: 'member', memberId: member.memberId } };
}

import { OPERATOR } from './operator.ts';
import { inviteByName } from '../../src/features/application/index.ts';
import type { MemberRole } from '../../src/domain/accounts/members.ts';
import type { TestInkstream } from './inkstream.ts';
import { joinAndSignIn, type AppSession } from './appSession.ts';

/** A member invited with the admin CLI's call, joined through their link and signed in. */
export async function signedInMember(
  inkstream: TestInkstream,
  input: { account?: string; email: string; role: MemberRole; password?: string },
): Promise<AppSession> {
  const { link } = await inviteByName(inkstream.platform, {
    account: input.account ?? 'test',
    email: input.email,
    role: input.role,
    actor: OPERATOR,
  });
  return joinAndSignIn(inkstream.url, link.url, input.email, input.password);
}

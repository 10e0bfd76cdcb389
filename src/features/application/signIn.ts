import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import { activeAccount } from './accountState.ts';
import {
  emailId,
  ensureApplicationCollections,
  MEMBER_EMAILS,
  MEMBER_PROFILES,
  type EmailClaim,
  type MemberProfile,
} from './collections.ts';
import { passwordMatches } from './passwords.ts';
import { startSession } from './sessions.ts';

/** Attempts allowed in a window: per email (guessing one person's password), per address (trying many people's). */
export const SIGN_IN_LIMITS = { perEmail: 10, perAddress: 50, windowSeconds: 15 * 60 };

export type SignInThrottle = { email: RateLimiterAbstract; address: RateLimiterAbstract };

/** Counters of this process only (the server uses the shared store: signInThrottleStore.ts). */
export const createSignInThrottle = (): SignInThrottle => ({
  email: new RateLimiterMemory({
    keyPrefix: 'sign-in-email',
    points: SIGN_IN_LIMITS.perEmail,
    duration: SIGN_IN_LIMITS.windowSeconds,
  }),
  address: new RateLimiterMemory({
    keyPrefix: 'sign-in-address',
    points: SIGN_IN_LIMITS.perAddress,
    duration: SIGN_IN_LIMITS.windowSeconds,
  }),
});

/** Takes one attempt from both budgets before any password is checked; 429 with the wait when either is spent. */
async function takeAttempt(
  throttle: SignInThrottle,
  email: string,
  address: string,
): Promise<void> {
  for (const [limiter, key, whose] of [
    [throttle.email, emailId(email), 'this email address'],
    [throttle.address, address, 'your network address'],
  ] as const) {
    try {
      await limiter.consume(key);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const minutes = Math.max(1, Math.ceil(error.msBeforeNext / 60_000));
      throw Object.assign(
        new AppError(
          'rate_limited',
          `Too many sign-in attempts for ${whose}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or ask an owner for a password reset link.`,
        ),
        { retryAfterSeconds: Math.ceil(error.msBeforeNext / 1000) },
      );
    }
  }
}

export async function signIn(
  platform: Pick<Platform, 'eventStore' | 'readStore' | 'clock' | 'ids'>,
  throttle: SignInThrottle,
  input: { email: string; password: string; address: string; userAgent: string },
) {
  await takeAttempt(throttle, input.email, input.address);
  await ensureApplicationCollections(platform.readStore);
  const claim = await platform.readStore.get<EmailClaim>(MEMBER_EMAILS, emailId(input.email));
  const profile =
    claim && (await platform.readStore.get<MemberProfile>(MEMBER_PROFILES, claim.memberId));
  const wrong = () => new AppError('unauthorized', 'Wrong email or password.');
  if (!(await passwordMatches(profile?.passwordHash ?? null, input.password)) || !claim)
    throw wrong();
  const { account } = await activeAccount(platform, claim.accountId);
  const member = account.members.find((candidate) => candidate.memberId === claim.memberId);
  if (!member || member.status !== 'active') throw wrong();
  await throttle.email.delete(emailId(input.email));
  const { token, session } = await startSession(
    platform,
    { accountId: account.id, memberId: member.memberId },
    input.userAgent,
  );
  return { token, session, member, account };
}

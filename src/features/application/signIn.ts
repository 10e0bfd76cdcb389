import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import { clientKey } from '../../http/clientAddress.ts';
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

/**
 * Attempts allowed in a window: per client address (an IPv6 /64 counts as one; trying many
 * people's passwords), and per (email, address) pair (guessing one person's password from one
 * place). There is no per-email lock: a stranger elsewhere spends only their own pair's budget, so
 * they can never keep the member out of their own account.
 */
export const SIGN_IN_LIMITS = { perAddress: 50, perPair: 10, windowSeconds: 15 * 60 };

export type SignInThrottle = { address: RateLimiterAbstract; pair: RateLimiterAbstract };

/** Counters of this process only (the server uses the shared store: signInThrottleStore.ts). */
export const createSignInThrottle = (): SignInThrottle => ({
  address: new RateLimiterMemory({
    keyPrefix: 'sign-in-address',
    points: SIGN_IN_LIMITS.perAddress,
    duration: SIGN_IN_LIMITS.windowSeconds,
  }),
  pair: new RateLimiterMemory({
    keyPrefix: 'sign-in-pair',
    points: SIGN_IN_LIMITS.perPair,
    duration: SIGN_IN_LIMITS.windowSeconds,
  }),
});

/** The key of an (email, address) pair's budget; the address as one client counts (an IPv6 /64). */
export const pairKey = (email: string, address: string): string =>
  `${emailId(email)} ${clientKey(address)}`;

/**
 * Takes one attempt before any password is checked, the address's budget first: a request
 * refused for its address spends nothing of any email's. 429 with the wait when either is spent.
 */
async function takeAttempt(
  throttle: SignInThrottle,
  email: string,
  address: string,
): Promise<void> {
  for (const [limiter, key, whose] of [
    [throttle.address, clientKey(address), 'your network address'],
    [throttle.pair, pairKey(email, address), 'this email address from your network address'],
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
  await throttle.pair.delete(pairKey(input.email, input.address));
  const { token, session } = await startSession(
    platform,
    { accountId: account.id, memberId: member.memberId },
    input.userAgent,
  );
  return { token, session, member, account };
}

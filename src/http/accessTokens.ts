import { AppError } from '../core/errors.ts';
import type { MemberRole } from '../domain/accounts/members.ts';
import type { AccountDoc } from '../../projections/accounts.ts';
import type { CollectionSpec, ReadStore } from '../readstore/port.ts';
import type { AuthContext, PresentedKey } from './auth.ts';
import { collectionsDeclaredOnce } from '../readstore/ensureOnce.ts';
import { removeOldest } from '../readstore/removeOldest.ts';

/**
 * Short-lived bearer tokens the signed-in application uses on /api/v1, bound to a session: signing
 * out, revoking the session, a role change or removal deletes them. Stored only as SHA-256 hashes,
 * like API keys; never cached, so a deleted token is refused by the very next request.
 */
export const ACCESS_TOKEN_TTL_MS = 10 * 60 * 1000;
export const ACCESS_TOKENS = 'access_tokens';
const ACCESS_TOKENS_SPEC: CollectionSpec = {
  name: ACCESS_TOKENS,
  indexes: ['sessionId', 'memberId', 'expiresAtMs'],
};

export type AccessTokenDoc = {
  id: string;
  accountId: string;
  memberId: string;
  role: MemberRole;
  sessionId: string;
  expiresAtMs: number;
};

export const ensureAccessTokens = collectionsDeclaredOnce([ACCESS_TOKENS_SPEC]);

const refused = () =>
  new AppError(
    'unauthorized',
    'This access token has expired or its session ended: get a new one from the application (POST /app/api/access-token).',
  );

/** A presented access token → its member's authorization, or 401 when unknown, expired or its account is gone. */
export async function lookUpAccessToken(
  { hash }: PresentedKey,
  readStore: ReadStore,
  nowMs: number,
): Promise<AuthContext> {
  await ensureAccessTokens(readStore);
  const token = await readStore.get<AccessTokenDoc>(ACCESS_TOKENS, hash);
  if (!token || token.expiresAtMs <= nowMs) throw refused();
  const account = await readStore.get<AccountDoc>('accounts', token.accountId);
  if (!account) throw refused();
  return {
    accountId: account.id,
    accountName: account.name,
    plan: account.plan,
    // The rate limit counts per key id: a member's tokens share one budget, whichever session made them.
    keyId: token.memberId,
    keyName: 'access token',
    role: token.role,
    actor: { kind: 'member', memberId: token.memberId },
  };
}

/** Deletes the access tokens that have expired (a lookup already refuses them): the retention job's, never a request's. */
export async function expireAccessTokens(readStore: ReadStore, nowMs: number): Promise<number> {
  await ensureAccessTokens(readStore);
  return removeOldest<AccessTokenDoc>(readStore, ACCESS_TOKENS, {
    sortField: 'expiresAtMs',
    isOld: (token) => token.expiresAtMs <= nowMs,
  });
}

import type { Platform } from '../../platform.ts';
import { generateAccessToken } from '../../domain/accounts/accessToken.ts';
import {
  ACCESS_TOKEN_TTL_MS,
  ACCESS_TOKENS,
  ensureAccessTokens,
  type AccessTokenDoc,
} from '../../http/accessTokens.ts';
import type { MemberRecord } from '../../domain/accounts/members.ts';
import { findAllBy, sha256 } from './collections.ts';
import { SESSION_ABSOLUTE_MS, type SessionDoc } from './sessions.ts';

/**
 * A bearer token for /api/v1 bound to the session: it acts as the member, with the member's role,
 * for ten minutes at most and never past the session's absolute end. The application keeps it in
 * memory and asks again before it runs out. Expired tokens of the session are swept on each issue.
 */
export async function issueAccessToken(
  platform: Pick<Platform, 'readStore' | 'clock'>,
  session: SessionDoc,
  member: MemberRecord,
) {
  await ensureAccessTokens(platform.readStore);
  const now = platform.clock.nowMs();
  for (const old of await findAllBy<AccessTokenDoc>(
    platform.readStore,
    ACCESS_TOKENS,
    'sessionId',
    session.ref,
  )) {
    if (old.expiresAtMs <= now) await platform.readStore.remove(ACCESS_TOKENS, old.id);
  }
  const token = generateAccessToken();
  const expiresAtMs = Math.min(
    now + ACCESS_TOKEN_TTL_MS,
    session.createdAtMs + SESSION_ABSOLUTE_MS,
  );
  const doc: AccessTokenDoc = {
    id: sha256(token),
    accountId: session.accountId,
    memberId: member.memberId,
    role: member.role,
    sessionId: session.ref,
    expiresAtMs,
  };
  await platform.readStore.save(ACCESS_TOKENS, doc);
  return { accessToken: token, expiresAt: new Date(expiresAtMs).toISOString() };
}

import { createHmac } from 'node:crypto';
import type { Platform } from '../../platform.ts';
import { ACCESS_TOKEN_PREFIX } from '../../domain/accounts/accessToken.ts';
import {
  ACCESS_TOKEN_TTL_MS,
  ACCESS_TOKENS,
  ensureAccessTokens,
  type AccessTokenDoc,
} from '../../http/accessTokens.ts';
import type { MemberRecord } from '../../domain/accounts/members.ts';
import { sha256 } from './collections.ts';
import { SESSION_ABSOLUTE_MS, type SessionDoc } from './sessions.ts';

/** A session's token changes every half of a token's life: at most two of a session's tokens live at once. */
const WINDOW_MS = ACCESS_TOKEN_TTL_MS / 2;

/**
 * The session's token of a window: derived from the session's cookie secret (which only the
 * browser and no store holds), the member's role and the window, so every tab of a session asking
 * within one window gets the same token, and a role change gives another.
 */
const tokenOf = (sessionToken: string, role: string, window: number): string =>
  ACCESS_TOKEN_PREFIX +
  createHmac('sha256', sessionToken).update(`access-token ${role} ${window}`).digest('base64url');

/**
 * A bearer token for /api/v1 bound to the session: it acts as the member, with the member's role,
 * for five to ten minutes and never past the session's absolute end. The application keeps it in
 * memory and asks again before it runs out. Asking again within the same five minutes gives the
 * same token, so a session holds at most two live tokens (this window's and the last one's) however
 * often it asks, and issuing one reads nothing; expired tokens are removed by the retention job
 * (`expireAccessTokens`), not in a request.
 */
export async function issueAccessToken(
  platform: Pick<Platform, 'readStore' | 'clock'>,
  session: SessionDoc,
  member: MemberRecord,
  sessionToken: string,
) {
  await ensureAccessTokens(platform.readStore);
  const window = Math.floor(platform.clock.nowMs() / WINDOW_MS);
  const token = tokenOf(sessionToken, member.role, window);
  const expiresAtMs = Math.min((window + 2) * WINDOW_MS, session.createdAtMs + SESSION_ABSOLUTE_MS);
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

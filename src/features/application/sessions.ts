import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Platform } from '../../platform.ts';
import { ACCESS_TOKENS, ensureAccessTokens } from '../../http/accessTokens.ts';
import { ensureApplicationCollections, findAllBy, SESSIONS, sha256 } from './collections.ts';

/** A session ends after this long without a request, and in any case this long after sign-in. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** lastSeen is written at most this often per session: a request need not cost a write. */
const TOUCH_EVERY_MS = 60 * 1000;

/** Stored under the SHA-256 of the cookie's token; `ref` is the id a member sees and revokes. */
export type SessionDoc = {
  id: string;
  ref: string;
  accountId: string;
  memberId: string;
  csrfToken: string;
  createdAtMs: number;
  lastSeenAtMs: number;
  userAgent: string;
};

type SessionPlatform = Pick<Platform, 'readStore' | 'clock' | 'ids'>;

export async function startSession(
  platform: SessionPlatform,
  member: { accountId: string; memberId: string },
  userAgent: string,
): Promise<{ token: string; session: SessionDoc }> {
  await ensureApplicationCollections(platform.readStore);
  const token = randomBytes(32).toString('base64url');
  const now = platform.clock.nowMs();
  const session: SessionDoc = {
    id: sha256(token),
    ref: platform.ids.next('ses'),
    ...member,
    csrfToken: randomBytes(32).toString('base64url'),
    createdAtMs: now,
    lastSeenAtMs: now,
    userAgent: userAgent.slice(0, 200),
  };
  await platform.readStore.save(SESSIONS, session);
  return { token, session };
}

export const sessionEndsAtMs = (session: SessionDoc): number =>
  Math.min(session.lastSeenAtMs + SESSION_IDLE_MS, session.createdAtMs + SESSION_ABSOLUTE_MS);

/** The live session of a cookie token, its last use recorded; null when unknown, idle too long or too old. */
export async function resumeSession(
  platform: SessionPlatform,
  token: string,
): Promise<SessionDoc | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  await ensureApplicationCollections(platform.readStore);
  const session = await platform.readStore.get<SessionDoc>(SESSIONS, sha256(token));
  if (!session) return null;
  const now = platform.clock.nowMs();
  if (now >= sessionEndsAtMs(session)) {
    await endSessions(platform, [session]);
    return null;
  }
  if (now - session.lastSeenAtMs < TOUCH_EVERY_MS) return session;
  const touched = { ...session, lastSeenAtMs: now };
  await platform.readStore.save(SESSIONS, touched);
  return touched;
}

export function csrfTokenMatches(session: SessionDoc, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const sessionsOf = (
  platform: Pick<Platform, 'readStore'>,
  memberId: string,
): Promise<SessionDoc[]> =>
  ensureApplicationCollections(platform.readStore).then(() =>
    findAllBy<SessionDoc>(platform.readStore, SESSIONS, 'memberId', memberId),
  );

/** Ends sessions and every access token made from them. */
export async function endSessions(
  platform: Pick<Platform, 'readStore'>,
  sessions: readonly SessionDoc[],
): Promise<void> {
  await ensureAccessTokens(platform.readStore);
  for (const session of sessions) {
    await platform.readStore.remove(SESSIONS, session.id);
    for (const token of await findAllBy(
      platform.readStore,
      ACCESS_TOKENS,
      'sessionId',
      session.ref,
    ))
      await platform.readStore.remove(ACCESS_TOKENS, token.id);
  }
}

/** A removed member: every session of theirs, then every access token of theirs, each looked up once. */
export async function endAllSessionsOf(
  platform: Pick<Platform, 'readStore'>,
  memberId: string,
): Promise<void> {
  for (const session of await sessionsOf(platform, memberId))
    await platform.readStore.remove(SESSIONS, session.id);
  await endAccessTokensOf(platform, memberId);
}

/** Access tokens carry the role they were made with: a role change ends them (the sessions stay). */
export async function endAccessTokensOf(
  platform: Pick<Platform, 'readStore'>,
  memberId: string,
): Promise<void> {
  await ensureAccessTokens(platform.readStore);
  for (const token of await findAllBy(platform.readStore, ACCESS_TOKENS, 'memberId', memberId))
    await platform.readStore.remove(ACCESS_TOKENS, token.id);
}

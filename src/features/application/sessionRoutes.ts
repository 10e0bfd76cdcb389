import { z } from 'zod';
import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import { issueAccessToken } from './accessToken.ts';
import { appRoute, type SignedIn } from './appRoute.ts';
import {
  ensureApplicationCollections,
  MEMBER_PROFILES,
  type MemberProfile,
} from './collections.ts';
import { clearedSessionCookie, sessionCookie, sessionTokenOf } from './cookies.ts';
import { setPasswordWithLink } from './passwordLinks.ts';
import { MAX_PASSWORD_LENGTH } from './passwords.ts';
import { endSessions, SESSION_ABSOLUTE_MS, sessionEndsAtMs, sessionsOf } from './sessions.ts';
import { signIn } from './signIn.ts';

const Email = z.string().trim().max(254).pipe(z.email());
const Password = z.string().min(1).max(MAX_PASSWORD_LENGTH);

async function me(platform: Pick<Platform, 'readStore'>, who: SignedIn) {
  await ensureApplicationCollections(platform.readStore);
  const profile = await platform.readStore.get<MemberProfile>(MEMBER_PROFILES, who.member.memberId);
  return {
    member: {
      id: who.member.memberId,
      email: profile?.email ?? null,
      name: profile?.name ?? null,
      role: who.member.role,
    },
    account: { id: who.account.id, name: who.account.name, plan: who.account.plan },
    csrfToken: who.session.csrfToken,
    sessionEndsAt: new Date(sessionEndsAtMs(who.session)).toISOString(),
  };
}

export const sessionRoutes = [
  appRoute({
    method: 'post',
    path: '/sign-in',
    access: 'public',
    body: z.object({ email: Email, password: Password }),
    async handle({ body, platform, throttle, address, req, secure }) {
      const { token, session, member, account } = await signIn(platform, throttle, {
        ...body,
        address,
        userAgent: req.headers['user-agent'] ?? '',
      });
      return {
        status: 200,
        cookie: sessionCookie(token, secure, SESSION_ABSOLUTE_MS / 1000),
        body: await me(platform, {
          session,
          member,
          account,
          events: [],
          actor: { kind: 'member', memberId: member.memberId },
        }),
      };
    },
  }),
  appRoute({
    method: 'post',
    path: '/set-password',
    access: 'public',
    body: z.object({
      token: z.string().max(100),
      password: Password,
      email: Email.optional(),
      name: z.string().trim().max(100).optional(),
    }),
    async handle({ body, platform, requestId, throttle, address }) {
      const result = await setPasswordWithLink(
        platform,
        { ...body, requestId },
        { signIn: throttle, address },
      );
      return { status: 200, body: { email: result.email, account: result.accountName } };
    },
  }),
  appRoute({
    method: 'post',
    path: '/sign-out',
    access: 'member',
    async handle({ platform, signedIn, secure }) {
      await endSessions(platform, [signedIn.session]);
      return { status: 204, cookie: clearedSessionCookie(secure) };
    },
  }),
  appRoute({
    method: 'get',
    path: '/me',
    access: 'member',
    async handle({ platform, signedIn }) {
      return { status: 200, body: await me(platform, signedIn) };
    },
  }),
  appRoute({
    method: 'get',
    path: '/sessions',
    access: 'member',
    async handle({ platform, signedIn }) {
      const sessions = await sessionsOf(platform, signedIn.member.memberId);
      return {
        status: 200,
        body: {
          sessions: sessions
            .sort((a, b) => b.lastSeenAtMs - a.lastSeenAtMs)
            .map((session) => ({
              id: session.ref,
              createdAt: new Date(session.createdAtMs).toISOString(),
              lastSeenAt: new Date(session.lastSeenAtMs).toISOString(),
              userAgent: session.userAgent,
              current: session.ref === signedIn.session.ref,
            })),
        },
      };
    },
  }),
  appRoute({
    method: 'delete',
    path: '/sessions/:id',
    access: 'member',
    async handle({ platform, signedIn, params, secure }) {
      const session = (await sessionsOf(platform, signedIn.member.memberId)).find(
        (candidate) => candidate.ref === params.id,
      );
      if (!session) throw new AppError('not_found', `No session ${params.id} of yours.`);
      await endSessions(platform, [session]);
      return {
        status: 204,
        cookie: session.ref === signedIn.session.ref ? clearedSessionCookie(secure) : undefined,
      };
    },
  }),
  appRoute({
    method: 'post',
    path: '/access-token',
    access: 'member',
    async handle({ platform, signedIn, req, secure }) {
      // Signed in means the cookie was there; the token is derived from its secret.
      const sessionToken = sessionTokenOf(req, secure);
      if (!sessionToken)
        throw new AppError('unauthorized', 'You are not signed in: sign in again.');
      return {
        status: 200,
        body: await issueAccessToken(platform, signedIn.session, signedIn.member, sessionToken),
      };
    },
  }),
];

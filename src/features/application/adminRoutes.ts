import { z } from 'zod';
import { MEMBER_ROLES } from '../../domain/accounts/members.ts';
import { appRoute } from './appRoute.ts';
import { createKey, listKeys, revokeKey, rotateKey } from './keysArea.ts';
import { changeMemberRole, inviteMember, listMembers, removeMember } from './members.ts';

const Role = z.enum(MEMBER_ROLES);
const KeyName = z.string().trim().min(1).max(64);

/** Account administration: owners only, except the list of members, which every member may read. */
export const adminRoutes = [
  appRoute({
    method: 'get',
    path: '/members',
    access: 'member',
    async handle({ platform, signedIn }) {
      return { status: 200, body: { members: await listMembers(platform, signedIn.account.id) } };
    },
  }),
  appRoute({
    method: 'post',
    path: '/members',
    access: 'owner',
    body: z.object({
      email: z.string().trim().max(254).pipe(z.email()),
      role: Role.default('editor'),
      name: z.string().trim().max(100).optional(),
    }),
    async handle({ platform, signedIn, body, requestId }) {
      const { member, link } = await inviteMember(platform, {
        accountId: signedIn.account.id,
        ...body,
        actor: signedIn.actor,
        requestId,
      });
      return {
        status: 201,
        body: { member, inviteLink: link.url, inviteLinkExpiresAt: link.expiresAt },
      };
    },
  }),
  appRoute({
    method: 'patch',
    path: '/members/:id',
    access: 'owner',
    body: z.object({ role: Role }),
    async handle({ platform, signedIn, body, params, requestId }) {
      await changeMemberRole(platform, {
        accountId: signedIn.account.id,
        memberId: params.id,
        role: body.role,
        actor: signedIn.actor,
        requestId,
      });
      const members = await listMembers(platform, signedIn.account.id);
      return { status: 200, body: { member: members.find((member) => member.id === params.id) } };
    },
  }),
  appRoute({
    method: 'delete',
    path: '/members/:id',
    access: 'owner',
    async handle({ platform, signedIn, params, requestId }) {
      await removeMember(platform, {
        accountId: signedIn.account.id,
        memberId: params.id,
        actor: signedIn.actor,
        requestId,
      });
      return { status: 204 };
    },
  }),
  appRoute({
    method: 'get',
    path: '/keys',
    access: 'owner',
    async handle({ platform, signedIn }) {
      return {
        status: 200,
        body: { keys: await listKeys(platform, signedIn.account, signedIn.events) },
      };
    },
  }),
  appRoute({
    method: 'post',
    path: '/keys',
    access: 'owner',
    body: z.object({ name: KeyName }),
    async handle({ platform, signedIn, body }) {
      const issued = await createKey(platform, signedIn.account, body.name, signedIn.actor);
      return { status: 201, body: { key: { id: issued.id, name: body.name }, secret: issued.key } };
    },
  }),
  appRoute({
    method: 'post',
    path: '/keys/:id/rotate',
    access: 'owner',
    async handle({ platform, signedIn, params }) {
      const issued = await rotateKey(platform, signedIn.account, params.id, signedIn.actor);
      return {
        status: 201,
        body: { key: { id: issued.id }, secret: issued.key, revoked: params.id },
      };
    },
  }),
  appRoute({
    method: 'delete',
    path: '/keys/:id',
    access: 'owner',
    async handle({ platform, signedIn, params }) {
      await revokeKey(platform, signedIn.account, params.id, signedIn.actor);
      return { status: 204 };
    },
  }),
];

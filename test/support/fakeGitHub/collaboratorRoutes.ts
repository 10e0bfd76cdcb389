import { simpleUser } from './objects.ts';
import { repoPath, type Route } from './route.ts';
import type { RepoRole } from './state.ts';

/**
 * `GET /repos/{owner}/{repo}/collaborators/{username}/permission`. Like GitHub, `permission` is the
 * legacy base role (maintain reads as write, triage as read) and `role_name` the role itself; the
 * owner is admin, and anyone else can read a public repository and nothing of a private one.
 */

const BASE_PERMISSION: Record<RepoRole, 'admin' | 'write' | 'read'> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
};
const RANK: RepoRole[] = ['read', 'triage', 'write', 'maintain', 'admin'];

export const collaboratorRoutes: Route[] = [
  {
    operationId: 'repos/get-collaborator-permission-level',
    method: 'GET',
    pattern: repoPath('/collaborators/(?<username>[^/]+)/permission'),
    permission: [['metadata', 'read']],
    handle: (ctx) => {
      const { repo, params } = ctx;
      const login = params.username;
      const role: RepoRole | null =
        login === repo.owner
          ? 'admin'
          : (repo.collaborators.get(login) ?? (repo.private ? null : 'read'));
      const permission = role ? BASE_PERMISSION[role] : 'none';
      const at = (level: RepoRole) => role !== null && RANK.indexOf(role) >= RANK.indexOf(level);
      const user = {
        ...simpleUser(login, ctx.urls),
        role_name: role ?? 'none',
        permissions: {
          pull: at('read'),
          triage: at('triage'),
          push: at('write'),
          maintain: at('maintain'),
          admin: at('admin'),
        },
      };
      return { status: 200, body: { permission, role_name: role ?? 'none', user } };
    },
  },
];

import { isGitHubError } from '../../../integrations/github/errors.ts';
import { REPO_ROLES, type RepoRole } from '../../../integrations/github/port.ts';
import type { Platform } from '../../../platform.ts';
import type { GitHubConnection } from '../../../domain/integrations/integrations.ts';
import { githubClients } from './githubClients.ts';

/**
 * Whether a PR comment's author may steer the article: they need the project's minimum role
 * (`commentPermission`, write by default) on the repository. `OWNER` settles it from the signed
 * payload; for anyone else GitHub is asked, because `MEMBER` and `COLLABORATOR` say nothing about
 * write access to this repository. When GitHub cannot answer, the comment is refused (fail closed).
 */
export type CommentVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * A role GitHub gave below the minimum is remembered this long, and only to refuse: a stranger's
 * flood of comments costs the project's GitHub rate limit one lookup per window, and someone just
 * given access waits at most this long. Nobody is ever let in on a remembered answer.
 */
export const REMEMBER_REFUSED_ROLE_MS = 10 * 60_000;
const MAX_REMEMBERED = 1_000;
const remembered = new WeakMap<Platform, Map<string, { role: RepoRole; untilMs: number }>>();

const rank = (role: RepoRole) => REPO_ROLES.indexOf(role);

export async function mayCommentSteer(
  platform: Platform,
  connection: GitHubConnection,
  owner: { accountId: string; projectId: string },
  author: { login: string; association: string },
): Promise<CommentVerdict> {
  if (author.association === 'OWNER') return { allowed: true };
  const repository = `${connection.owner}/${connection.repo}`;
  const minimum = connection.commentPermission;
  const rule = `only people with ${minimum} access or more to ${repository} steer an article through comments`;
  const refuse = (role: RepoRole): CommentVerdict => ({
    allowed: false,
    reason: `${author.login} has ${role === 'none' ? 'no access' : `${role} access`} to ${repository}: ${rule}`,
  });

  const known = rememberedRoles(platform);
  const key = `${repository}:${author.login}`.toLowerCase();
  const earlier = known.get(key);
  if (earlier && earlier.untilMs > platform.clock.nowMs() && rank(earlier.role) < rank(minimum))
    return refuse(earlier.role);

  let role: RepoRole;
  try {
    const found = await githubClients(platform)
      .forConnection(connection, owner)
      .repository({ owner: connection.owner, repo: connection.repo })
      .collaboratorRole(author.login);
    if (!found)
      return {
        allowed: false,
        reason: `GitHub knows no user ${author.login} with access to ${repository}: ${rule}`,
      };
    role = found.role;
  } catch (error) {
    if (!isGitHubError(error))
      platform.logger.warn(
        { err: error, repository, login: author.login },
        "could not read a commenter's permission",
      );
    const why = isGitHubError(error) ? error.reason : 'no answer';
    return {
      allowed: false,
      reason: `could not confirm that ${author.login} has ${minimum} access to ${repository} (GitHub: ${why}); ${rule}, so the comment was ignored: comment again once GitHub answers`,
    };
  }
  if (rank(role) >= rank(minimum)) return { allowed: true };
  known.delete(key);
  if (known.size >= MAX_REMEMBERED) known.delete(known.keys().next().value!);
  known.set(key, { role, untilMs: platform.clock.nowMs() + REMEMBER_REFUSED_ROLE_MS });
  return refuse(role);
}

function rememberedRoles(platform: Platform) {
  let known = remembered.get(platform);
  if (!known) remembered.set(platform, (known = new Map()));
  return known;
}

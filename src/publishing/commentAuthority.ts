import { isGitHubError } from '../integrations/github/errors.ts';
import { REPO_ROLES, type RepoRole } from '../integrations/github/port.ts';
import type { Services } from '../services.ts';
import type { GitHubConnection } from './connection.ts';
import { githubClients } from './githubClients.ts';

/**
 * Whether a PR comment's author may steer the article: they need the project's minimum role
 * (`commentPermission`, write by default) on the repository. `OWNER` settles it from the signed
 * payload; for anyone else GitHub is asked, because `MEMBER` and `COLLABORATOR` say nothing about
 * write access to this repository. When GitHub cannot answer, the comment is refused (fail closed).
 */
export type CommentVerdict = { allowed: true } | { allowed: false; reason: string };

const rank = (role: RepoRole) => REPO_ROLES.indexOf(role);

export async function mayCommentSteer(
  services: Services, connection: GitHubConnection, author: { login: string; association: string },
): Promise<CommentVerdict> {
  if (author.association === 'OWNER') return { allowed: true };
  const repository = `${connection.owner}/${connection.repo}`;
  const minimum = connection.commentPermission;
  const rule = `only people with ${minimum} access or more to ${repository} steer an article through comments`;
  let role: RepoRole;
  try {
    const found = await githubClients(services).forConnection(connection)
      .repository({ owner: connection.owner, repo: connection.repo })
      .collaboratorRole(author.login);
    if (!found) return { allowed: false, reason: `GitHub knows no user ${author.login} with access to ${repository}: ${rule}` };
    role = found.role;
  } catch (error) {
    if (!isGitHubError(error)) services.logger.warn({ err: error, repository, login: author.login }, 'could not read a commenter\'s permission');
    const why = isGitHubError(error) ? error.reason : 'no answer';
    return { allowed: false, reason: `could not confirm that ${author.login} has ${minimum} access to ${repository} (GitHub: ${why}); ${rule}, so the comment was ignored: comment again once GitHub answers` };
  }
  if (rank(role) >= rank(minimum)) return { allowed: true };
  const has = role === 'none' ? 'no access' : `${role} access`;
  return { allowed: false, reason: `${author.login} has ${has} to ${repository}: ${rule}` };
}

import { slugOfPath, type ActiveArticle } from '../../../domain/articles/article.ts';
import { GitHubError } from '../../../integrations/github/errors.ts';
import type { GitHubRepository } from '../../../integrations/github/port.ts';
import { articlePath, publishBranch, refreshBranch } from '../articleFiles.ts';
import type { GitHubSettings } from '../../../domain/integrations/integrations.ts';

/** Where one publication goes: the file's slug and path, and the branch (null: straight onto the base branch). */
export type PublishTarget = { slug: string; path: string; branch: string | null };

export const MAX_SLUG_SUFFIX = 20;

type Choice = {
  settings: GitHubSettings;
  article: ActiveArticle;
  purpose: 'publish' | 'refresh';
  mode: 'pr' | 'direct';
};

/**
 * A target recorded earlier for this publication still applies unless the connection moved the
 * content directory or the publish mode since (a retry after fixing the connection).
 */
export function stillApplies(target: PublishTarget, choice: Choice): boolean {
  if ((target.branch === null) !== (choice.mode === 'direct')) return false;
  return choice.purpose === 'refresh'
    ? target.path === choice.article.path
    : target.path === articlePath(choice.settings, target.slug);
}

/**
 * The slug policy (docs/publishing.md): a first publication never overwrites a file or reuses a
 * branch it did not make. If `<slug>.mdx` exists on the base branch, or (pull requests) the branch
 * `inkstream/<slug>` exists, the next free of `<slug>-2` … `<slug>-20` is taken. A refresh updates
 * the published file in place on `inkstream/<slug>-refresh-<n>`. The choice is recorded before
 * anything is written, and every re-run of the publication uses the recorded one.
 */
export async function choosePublishTarget(
  repo: GitHubRepository,
  choice: Choice,
): Promise<PublishTarget> {
  const { settings, article, purpose, mode } = choice;
  if (purpose === 'refresh' && article.path) {
    const slug = slugOfPath(article.path);
    return { slug, path: article.path, branch: refreshBranch(slug, article.refreshCount) };
  }
  const base = article.slug ?? 'article';
  for (let n = 1; n <= MAX_SLUG_SUFFIX; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const path = articlePath(settings, slug);
    if (await repo.getFile(path, settings.baseBranch)) continue;
    if (mode === 'direct') return { slug, path, branch: null };
    const branch = publishBranch(slug);
    if ((await repo.getBranchHead(branch)) === null) return { slug, path, branch };
  }
  throw new GitHubError({
    code: 'validation_failed',
    status: 0,
    retryable: false,
    operation: `choose a file name in ${repo.owner}/${repo.repo}`,
    reason: `${articlePath(settings, base)} and the names up to ${base}-${MAX_SLUG_SUFFIX}.mdx (or their inkstream/ branches) are all taken. Remove old files or branches, or publish into another contentDirectory.`,
  });
}

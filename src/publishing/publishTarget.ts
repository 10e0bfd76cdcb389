import type { ActiveArticle } from '../articles/article.ts';
import { GitHubError } from '../integrations/github/errors.ts';
import type { GitHubRepository, RepoFile } from '../integrations/github/port.ts';
import { articlePath, mdxFor, publishBranch, refreshBranch, slugOfPath } from './articleFiles.ts';
import type { GitHubSettings } from './connection.ts';

/** Where one publication goes: the file's slug and path, and the branch (null: straight onto the base branch). */
export type PublishTarget = { slug: string; path: string; branch: string | null };

export const MAX_SLUG_SUFFIX = 20;

/**
 * The slug policy (docs/publishing.md): a first publication never overwrites a file it did not
 * write. If `<slug>.mdx` exists on the base branch, or `inkstream/<slug>` carries another
 * article's file, the next of `<slug>-2` … `<slug>-20` is taken. A file holding one of this
 * article's own versions is this article's earlier attempt (a crash, a retry) and is resumed, so
 * re-running never opens a second pull request or adds a second file. A refresh updates the
 * published file in place on `inkstream/<slug>-refresh-<n>`.
 */
export async function choosePublishTarget(input: {
  repo: GitHubRepository; settings: GitHubSettings; article: ActiveArticle; purpose: 'publish' | 'refresh'; mode: 'pr' | 'direct';
  /** Every MDX version the article has had: what "this article's own file" can look like. */
  versions: readonly string[];
}): Promise<PublishTarget> {
  const { repo, settings, article, purpose, mode, versions } = input;
  if (purpose === 'refresh' && article.path) {
    const slug = slugOfPath(article.path);
    return { slug, path: article.path, branch: refreshBranch(slug, article.refreshCount) };
  }
  const base = article.slug ?? 'article';
  for (let n = 1; n <= MAX_SLUG_SUFFIX; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const path = articlePath(settings, slug);
    const ours = (file: RepoFile | null) => file !== null && versions.some((version) => mdxFor(version, slug) === file.content.toString('utf8'));
    const onBase = await repo.getFile(path, settings.baseBranch);
    if (mode === 'direct') {
      if (onBase === null || ours(onBase)) return { slug, path, branch: null };
      continue;
    }
    const branch = publishBranch(slug);
    const onBranch = await repo.getFile(path, branch);
    if (ours(onBranch)) return { slug, path, branch };
    if (onBase === null && onBranch === null) return { slug, path, branch };
  }
  throw new GitHubError({
    code: 'validation_failed', status: 0, retryable: false, operation: `choose a file name in ${repo.owner}/${repo.repo}`,
    reason: `${articlePath(settings, base)} and the names up to ${base}-${MAX_SLUG_SUFFIX}.mdx are all taken in ${settings.contentDirectory || 'the repository root'}. Give the article another slug (revise its frontmatter) or remove old files.`,
  });
}

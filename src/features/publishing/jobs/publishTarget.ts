import type { ActiveArticle } from '../../../domain/articles/article.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import { committedSlug } from '../articleHistory.ts';
import { GitHubError } from '../../../integrations/github/errors.ts';
import type { GitHubRepository } from '../../../integrations/github/port.ts';
import { publishBranch, refreshBranch } from '../articleFiles.ts';
import { publicationPath, type PublishingConnection } from '../site/sitePath.ts';

/** Where one publication goes: the file's slug and path, and the branch (null: straight onto the base branch). */
export type PublishTarget = { slug: string; path: string; branch: string | null };

export const MAX_SLUG_SUFFIX = 20;

type Choice = {
  /** The connection: its folders, and the content profile that names the file. */
  settings: PublishingConnection;
  article: ActiveArticle;
  purpose: 'publish' | 'refresh';
  mode: 'pr' | 'direct';
  /** The article's stream: the slug its published path was committed under. */
  events?: readonly StoredEvent[];
};

/**
 * A target recorded earlier for this publication still applies unless the connection moved the
 * content directory or the publish mode since (a retry after fixing the connection).
 */
export function stillApplies(target: PublishTarget, choice: Choice): boolean {
  if ((target.branch === null) !== (choice.mode === 'direct')) return false;
  return choice.purpose === 'refresh'
    ? target.path === choice.article.path
    : target.path === publicationPath(choice.settings, target.slug, choice.article.mdx ?? '');
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
    const slug = committedSlug(choice.events ?? [], article.path);
    return { slug, path: article.path, branch: refreshBranch(slug, article.refreshCount) };
  }
  const base = article.slug ?? 'article';
  for (let n = 1; n <= MAX_SLUG_SUFFIX; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const path = publicationPath(settings, slug, article.mdx ?? '');
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
    reason: `${publicationPath(settings, base, article.mdx ?? '')} and the names up to ${base}-${MAX_SLUG_SUFFIX} (or their inkstream/ branches) are all taken. Remove old files or branches, or publish into another contentDirectory.`,
  });
}

import type { ActiveArticle } from '../../domain/articles/article.ts';
import { renderCover } from '../articles/coverApi.ts';
import { articlePath, coverPath, mdxFor } from './legacyFile.ts';
import type { FileToCommit, GitHubRepository } from '../../integrations/github/port.ts';
import { mdxBodyOf } from '../../mdx/mdx.ts';
import { UnsafeMdxError } from '../../mdx/unsafeMdxError.ts';
import type { PublishingConnection } from './site/sitePath.ts';
import { SiteFileError } from './site/siteFileError.ts';

/** Where an article lives in the repository and on which branch its pull request is made. */

export { articlePath, coverPath, mdxFor };

export const BRANCH_PREFIX = 'inkstream/';

export const publishBranch = (slug: string): string => `${BRANCH_PREFIX}${slug}`;
export const refreshBranch = (slug: string, refreshNumber: number): string =>
  `${BRANCH_PREFIX}${slug}-refresh-${refreshNumber}`;

/** Where a commit lands: the branch, and the base branch whose file a new branch will start from. */
export type CommitTarget = {
  repo: Pick<GitHubRepository, 'getFile'>;
  branch: string;
  baseBranch: string;
};

/** The repository's own version of the file: on the branch the commit lands on, else on the base branch. */
async function repositoryVersion(
  { repo, branch, baseBranch }: CommitTarget,
  path: string,
): Promise<string | null> {
  const file =
    (await repo.getFile(path, branch)) ??
    (branch === baseBranch ? null : await repo.getFile(path, baseBranch));
  return file ? file.content.toString('utf8') : null;
}

/**
 * The files of one commit: the post rendered in the site's shape at `path` (the legacy MDX for a
 * connection without a learned profile, or a path committed in that shape before), and the cover
 * where the site keeps images. The post is checked against the profile (SiteFileError: nothing is
 * committed) and passes the site's engine gate against the repository's own version
 * (UnsafeMdxError).
 */
export async function articleFiles(
  article: ActiveArticle,
  mdx: string,
  connection: PublishingConnection,
  file: { slug: string; path: string },
  target: CommitTarget,
  coverFont: string | undefined,
): Promise<FileToCommit[]> {
  const cover = article.cover ? await renderCover(article.cover, coverFont) : null;
  // The Markdown toolchain (~20 MB resident) loads with the first commit, not with a start (docs/memory.md).
  const [{ siteFilesFor }, { assertInertMdx }, { siteGateProblem }] = await Promise.all([
    import('./site/sitePublication.ts'),
    import('../../mdx/mdxGate.ts'),
    import('./site/inertForEngine.ts'),
  ]);
  const checked = siteFilesFor(connection, { mdx, slug: file.slug, path: file.path, cover });
  if (checked.problems.length || !checked.post) throw new SiteFileError(checked.problems);
  const repositoryFile = await repositoryVersion(target, file.path);
  if (!checked.profile) assertInertMdx(checked.post.content, repositoryFile);
  else {
    const problem = siteGateProblem(
      checked.post,
      checked.profile.templateEngine,
      checked.profile.excerptSeparator,
      repositoryFile === null ? null : bodyOf(repositoryFile),
    );
    if (problem) throw new UnsafeMdxError(problem);
  }
  return checked.files;
}

/** The repository version's body, for what code it already had (its frontmatter is not MDX). */
function bodyOf(file: string): string {
  try {
    return mdxBodyOf(file);
  } catch {
    return file;
  }
}

import { coverSitePath, type ActiveArticle } from '../../domain/articles/article.ts';
import { renderCover } from '../articles/coverApi.ts';
import { buildMdx, parseMdx } from '../../mdx/mdx.ts';
import type { FileToCommit, GitHubRepository } from '../../integrations/github/port.ts';
import type { GitHubSettings } from '../../domain/integrations/integrations.ts';

/** Where an article lives in the repository and on which branch its pull request is made. */

export const BRANCH_PREFIX = 'inkstream/';

const joinPath = (directory: string, name: string): string =>
  directory ? `${directory}/${name}` : name;

export const articlePath = (
  settings: Pick<GitHubSettings, 'contentDirectory'>,
  slug: string,
): string => joinPath(settings.contentDirectory, `${slug}.mdx`);
export const coverPath = (settings: Pick<GitHubSettings, 'coverDirectory'>, slug: string): string =>
  joinPath(settings.coverDirectory, `${slug}.png`);

export const publishBranch = (slug: string): string => `${BRANCH_PREFIX}${slug}`;
export const refreshBranch = (slug: string, refreshNumber: number): string =>
  `${BRANCH_PREFIX}${slug}-refresh-${refreshNumber}`;

/**
 * The MDX as committed under `slug`: the draft itself, or, when the slug had to change, the draft
 * with its frontmatter's slug and cover path pointing at the new name. Deterministic, so a re-run
 * commits the same bytes (and the commit is found already made).
 */
export function mdxFor(mdx: string, slug: string): string {
  let parsed;
  try {
    parsed = parseMdx(mdx);
  } catch {
    return mdx; // frontmatter a person shaped by hand: committed as it is
  }
  if (parsed.frontmatter.slug === slug) return mdx;
  const frontmatter = {
    ...parsed.frontmatter,
    slug,
    ...(parsed.frontmatter.cover ? { cover: coverSitePath(slug) } : {}),
  };
  return buildMdx(frontmatter, parsed.body);
}

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
 * The files of one commit: the MDX, and the cover PNG when the article has one. The MDX passes the
 * gate against the repository's own version first (UnsafeMdxError: nothing is committed).
 */
export async function articleFiles(
  article: ActiveArticle,
  mdx: string,
  settings: GitHubSettings,
  slug: string,
  target: CommitTarget,
  coverFont: string | undefined,
): Promise<FileToCommit[]> {
  const path = articlePath(settings, slug);
  const content = mdxFor(mdx, slug);
  // The MDX parser (~20 MB resident) loads with the first commit, not with a start (docs/memory.md).
  const { assertInertMdx } = await import('../../mdx/mdxGate.ts');
  assertInertMdx(content, await repositoryVersion(target, path));
  const files: FileToCommit[] = [{ path, content }];
  if (article.cover)
    files.push({
      path: coverPath(settings, slug),
      content: await renderCover(article.cover, coverFont),
    });
  return files;
}

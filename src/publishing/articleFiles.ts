import type { ActiveArticle } from '../articles/article.ts';
import { renderCover } from '../articles/coverApi.ts';
import { buildMdx, parseMdx } from '../articles/mdx.ts';
import type { FileToCommit } from '../integrations/github/port.ts';
import { coverSitePath } from '../pipeline/draftMdx.ts';
import type { GitHubSettings } from './connection.ts';

/** Where an article lives in the repository and on which branch its pull request is made. */

export const BRANCH_PREFIX = 'inkstream/';

const joinPath = (directory: string, name: string): string => (directory ? `${directory}/${name}` : name);

export const articlePath = (settings: Pick<GitHubSettings, 'contentDirectory'>, slug: string): string => joinPath(settings.contentDirectory, `${slug}.mdx`);
export const coverPath = (settings: Pick<GitHubSettings, 'coverDirectory'>, slug: string): string => joinPath(settings.coverDirectory, `${slug}.png`);

/** The slug a published file has: its name without `.mdx` (it differs from the draft's slug after a collision). */
export const slugOfPath = (path: string): string => path.slice(path.lastIndexOf('/') + 1).replace(/\.mdx$/, '');

export const publishBranch = (slug: string): string => `${BRANCH_PREFIX}${slug}`;
export const refreshBranch = (slug: string, refreshNumber: number): string => `${BRANCH_PREFIX}${slug}-refresh-${refreshNumber}`;

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
  const frontmatter = { ...parsed.frontmatter, slug, ...(parsed.frontmatter.cover ? { cover: coverSitePath(slug) } : {}) };
  return buildMdx(frontmatter, parsed.body);
}

/** The files of one commit: the MDX, and the cover PNG when the article has one. */
export async function articleFiles(article: ActiveArticle, mdx: string, settings: GitHubSettings, slug: string): Promise<FileToCommit[]> {
  const files: FileToCommit[] = [{ path: articlePath(settings, slug), content: mdxFor(mdx, slug) }];
  if (article.cover) files.push({ path: coverPath(settings, slug), content: await renderCover(article.cover) });
  return files;
}

import { coverSitePath } from '../../domain/articles/article.ts';
import type { GitHubSettings } from '../../domain/integrations/integrations.ts';
import { buildMdx, parseMdx } from '../../mdx/mdx.ts';

/**
 * The fixed shape every article was committed in before content profiles (and still is for a
 * connection whose profile is `legacy`): `<contentDirectory>/<slug>.mdx`, the cover at
 * `<coverDirectory>/<slug>.png`, the draft's own frontmatter.
 */

export const joinPath = (directory: string, name: string): string =>
  directory ? `${directory}/${name}` : name;

export const articlePath = (
  settings: Pick<GitHubSettings, 'contentDirectory'>,
  slug: string,
): string => joinPath(settings.contentDirectory, `${slug}.mdx`);
export const coverPath = (settings: Pick<GitHubSettings, 'coverDirectory'>, slug: string): string =>
  joinPath(settings.coverDirectory, `${slug}.png`);

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

import type { ActiveArticle, ArticleEvent } from '../../domain/articles/article.ts';
import { integrationsStream } from '../../domain/integrations/decide.ts';
import { loadStream } from '../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../eventstore/port.ts';
import type { Platform } from '../../platform.ts';
import { buildMdx, parseMdx } from '../../mdx/mdx.ts';
import { mdxFor } from './articleFiles.ts';
import { committedSlug } from './articleHistory.ts';
import { githubClients } from './github/githubClients.ts';

/** Every version Inkstream recorded for the article, as `committed` writes it to the repository. */
function ownVersions(
  events: readonly StoredEvent[],
  committed: (mdx: string) => string,
): Set<string> {
  const versions = new Set<string>();
  for (const stored of events) {
    const event = stored as unknown as ArticleEvent;
    if (event.type === 'ArticleDrafted' || event.type === 'ArticleRevised')
      versions.add(committed(event.data.mdx));
  }
  return versions;
}

/**
 * The article's file on its open pull request's branch when a person changed it there: the text,
 * the frontmatter or their own MDX components, which a revision must start from so they are kept.
 * Null when the branch holds a version Inkstream wrote (its own, possibly not yet committed
 * revision is newer), when there is no open pull request or file, or no GitHub connection any more.
 * GitHub's errors are thrown: a revision that cannot see the branch must not overwrite it.
 */
export async function handEditedVersion(
  platform: Platform,
  article: ActiveArticle,
  events: readonly StoredEvent[],
): Promise<string | null> {
  if (article.status !== 'pr_open' || !article.pr || !article.path) return null;
  const connection = (await loadStream(platform.eventStore, integrationsStream, article.projectId))
    .state.github;
  if (!connection) return null;
  const repo = githubClients(platform)
    .forConnection(connection, { accountId: accountOf(events), projectId: article.projectId })
    .repository({ owner: connection.owner, repo: connection.repo });
  const file = await repo.getFile(article.path, article.pr.branch);
  if (!file) return null;
  const onBranch = file.content.toString('utf8');
  const path = article.path;
  const slug = committedSlug(events, path);
  const cover = article.cover ? Buffer.alloc(0) : null; // the post names the cover; its bytes do not matter here
  const { siteFilesFor } = await import('./site/sitePublication.ts');
  const { siteFileBody } = await import('./site/validateForSite.ts');
  const shaped = (mdx: string) => siteFilesFor(connection, { mdx, slug, path, cover });
  const own = ownVersions(events, (mdx) => shaped(mdx).post?.content ?? mdxFor(mdx, slug));
  if (own.has(onBranch)) return null;
  const profile = article.mdx ? shaped(article.mdx).profile : null;
  if (!profile || !article.mdx) return onBranch;
  // A file in the site's shape: the person's edits are its body; the frontmatter stays the article's own.
  return buildMdx(
    parseMdx(article.mdx).frontmatter,
    siteFileBody(onBranch, profile.frontmatterFormat),
  );
}

const accountOf = (events: readonly StoredEvent[]): string => events[0].metadata.accountId;

import type { ActiveArticle } from '../../domain/articles/article.ts';
import type { GitHubConnection } from '../../domain/integrations/integrations.ts';
import type { StoredEvent } from '../../eventstore/port.ts';
import { countWords, parseMdx } from '../../mdx/mdx.ts';
import { latestSearchMetrics } from '../searchAnalytics/refreshContext.ts';
import { coverPath } from './articleFiles.ts';
import { prBody } from './prText.ts';

function generatorOf(mdx: string): string | null {
  try {
    const { generator } = parseMdx(mdx).frontmatter;
    return generator.provider === 'offline'
      ? 'the offline writer (no model configured)'
      : `${generator.provider} ${generator.model}`;
  } catch {
    return null;
  }
}

/**
 * The pull request's description for the article as it is now (`mdx`, its current version): when
 * the pull request is opened, and again after each revision committed to its branch, so the
 * description, length and checks it shows are those of the file on the branch.
 */
export function pullRequestBody(input: {
  article: ActiveArticle;
  mdx: string;
  connection: GitHubConnection;
  path: string;
  slug: string;
  purpose: 'publish' | 'refresh';
  events: readonly StoredEvent[];
  /** Where the commit put the cover (a site's image folder or page bundle); the legacy place when not given. */
  committedCover?: string | null;
}): string {
  const { article, mdx, connection, path, slug, purpose, events, committedCover } = input;
  return prBody({
    article,
    purpose,
    path,
    coverPath:
      committedCover !== undefined
        ? committedCover
        : article.cover
          ? coverPath(connection, slug)
          : null,
    wordCount: countWords(mdx),
    generator: generatorOf(mdx),
    search: purpose === 'refresh' ? latestSearchMetrics(events) : null,
  });
}

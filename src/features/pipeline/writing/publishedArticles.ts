import type { ArticleDoc } from '../../../../projections/articles.ts';
import type { ActiveProject } from '../../../domain/projects/project.ts';
import type { Platform } from '../../../platform.ts';
import type { Source } from '../../../integrations/llm/writer.ts';
import { articleUrl, defaultUrlPattern } from '../../searchAnalytics/articleUrl.ts';

/** The newest published articles a draft may link to; older ones are still on-site links if the model knows them. */
const MAX_CANDIDATES = 50;

/**
 * Inkstream's own published (merged) articles of the project, with the address the site serves
 * them at (`{siteUrl}/blog/{slug}`, or `{blogUrl}/{slug}` when the project has a blog URL): link
 * candidates for the next draft. They are on the site's host, so the link policy keeps them.
 */
export async function publishedArticles(
  platform: Pick<Platform, 'readStore'>,
  project: ActiveProject,
): Promise<Source[]> {
  const page = await platform.readStore.find<ArticleDoc>('articles', {
    filter: { projectId: project.id, status: 'merged' },
    sort: { field: 'createdAt', direction: 'desc' },
    limit: MAX_CANDIDATES,
  });
  return page.items
    .filter((doc) => doc.slug)
    .map((doc) => ({
      url: articleUrl(defaultUrlPattern(project), project, doc.slug!),
      title: doc.title,
    }));
}

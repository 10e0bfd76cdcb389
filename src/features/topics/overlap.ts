import type { SitePagesDoc } from '../../../projections/sitePages.ts';
import { corpusPageNames } from '../pipeline/corpus/corpusPages.ts';
import type { TopicOverlap } from '../../domain/topics/topic.ts';
import { overlappingIndexedPage, overlappingPage } from '../../integrations/llm/topicDedupe.ts';
import type { Platform } from '../../platform.ts';
import { publishedNamesOf } from './publishedNames.ts';

/**
 * The page of the site (from its last crawl) or the published article a new topic would compete
 * with, with what to do instead; null when it covers new ground. The topic is still created: the
 * person adding it may mean a different angle, and the flag tells them what they risk.
 */
export async function overlapOf(
  platform: Pick<Platform, 'readStore' | 'readModels' | 'tail' | 'config' | 'siteCorpus'>,
  projectId: string,
  topic: { title: string; keyword?: string },
  head: bigint,
): Promise<TopicOverlap | null> {
  const [site, published] = await Promise.all([
    platform.readStore.get<SitePagesDoc>('site_pages', projectId),
    // The names of the newest published articles (publishedNames.ts), remembered between requests.
    publishedNamesOf(platform).index(projectId, head),
  ]);
  const page =
    overlappingPage(topic, site?.pages ?? []) ??
    overlappingPage(topic, corpusPageNames(platform, projectId, topic));
  if (page) {
    return {
      url: page.url,
      title: page.title,
      source: 'site',
      articleId: null,
      advice:
        'The site already has a page on this subject; a new article would compete with it in search. Consider refreshing that page instead, or narrow this topic to an angle the page does not cover.',
    };
  }
  const article = overlappingIndexedPage(topic, published)?.article;
  if (!article) return null;
  return {
    url: article.prUrl ?? article.path ?? '',
    title: article.title,
    source: 'article',
    articleId: article.id,
    advice: `Inkstream already published an article on this subject; a new one would compete with it in search. Consider refreshing it instead (POST /api/v1/articles/${article.id}/refresh), or narrow this topic to an angle it does not cover.`,
  };
}

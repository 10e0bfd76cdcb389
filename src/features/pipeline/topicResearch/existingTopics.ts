import type { ArticleDoc } from '../../../../projections/articles.ts';
import type { TopicDoc } from '../../../../projections/topics.ts';
import type { ExistingTopic } from '../../../integrations/llm/writer.ts';
import type { ReadStore } from '../../../readstore/port.ts';
import type { CrawledPageSummary } from '../../../domain/projects/brand.ts';
import { readAllDocs } from '../readAllDocs.ts';

/**
 * Everything a research run must not suggest again: every topic of the project whatever its
 * status (rejected ones included, so turned-down ideas stay down), every article's title, and
 * the site's own pages and the published articles, which a topic must not compete with.
 */
export async function existingTopicsOf(
  readStore: ReadStore,
  projectId: string,
  sitePages: readonly CrawledPageSummary[] = [],
  sitemapUrls: readonly string[] = [],
): Promise<ExistingTopic[]> {
  const [topics, articles] = await Promise.all([
    readAllDocs<TopicDoc>(readStore, 'topics', { projectId }),
    readAllDocs<ArticleDoc>(readStore, 'articles', { projectId }),
  ]);
  const seen = new Set<string>();
  const existing: ExistingTopic[] = [];
  const add = (
    title: string,
    keyword: string | null,
    status: string,
    page?: { url: string; heading?: string },
  ) => {
    const key = `${title.trim().toLowerCase()} ${page?.url ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    existing.push({ title, ...(keyword ? { keyword } : {}), status, ...page });
  };
  for (const topic of topics) add(topic.title, topic.keyword, topic.status);
  for (const article of articles) {
    const published = article.status === 'merged' && (article.path ?? article.slug);
    add(
      article.title,
      article.keyword,
      published ? 'published' : 'written',
      published ? { url: published } : undefined,
    );
  }
  for (const page of sitePages)
    add(page.title, null, 'page on the site', {
      url: page.url,
      ...(page.headings[0] ? { heading: page.headings[0] } : {}),
    });
  for (const url of sitemapUrls) add('', null, 'page in the sitemap', { url });
  return existing;
}

import type { ArticleDoc } from '../../../../projections/articles.ts';
import type { TopicDoc } from '../../../../projections/topics.ts';
import type { ExistingTopic } from '../../../integrations/llm/writer.ts';
import type { ReadStore } from '../../../readstore/port.ts';
import { readAllDocs } from '../readAllDocs.ts';

/**
 * Everything a research run must not suggest again: every topic of the project whatever its
 * status (rejected ones included, so turned-down ideas stay down) and every article's title.
 */
export async function existingTopicsOf(readStore: ReadStore, projectId: string): Promise<ExistingTopic[]> {
  const [topics, articles] = await Promise.all([
    readAllDocs<TopicDoc>(readStore, 'topics', { projectId }),
    readAllDocs<ArticleDoc>(readStore, 'articles', { projectId }),
  ]);
  const seen = new Set<string>();
  const existing: ExistingTopic[] = [];
  const add = (title: string, keyword: string | null, status: string) => {
    const key = title.trim().toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    existing.push({ title, ...(keyword ? { keyword } : {}), status });
  };
  for (const topic of topics) add(topic.title, topic.keyword, topic.status);
  for (const article of articles) add(article.title, article.keyword, 'written');
  return existing;
}

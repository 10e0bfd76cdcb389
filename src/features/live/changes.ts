import type { StoredEvent } from '../../eventstore/port.ts';
import { streamCategory } from '../../eventstore/port.ts';
import { ARTICLE_CATEGORY } from '../../domain/articles/article.ts';
import { PROJECT_CATEGORY } from '../../domain/projects/project.ts';
import { TOPIC_CATEGORY } from '../../domain/topics/topic.ts';
import type { LiveChange } from './schemas.ts';

/** The log categories the live stream reads. */
export const LIVE_CATEGORIES = [PROJECT_CATEGORY, TOPIC_CATEGORY, ARTICLE_CATEGORY] as const;

/** Which project (and topic) an article or topic belongs to: its events after the first do not say. */
export type Owner = { projectId: string; topicId?: string };

// The status each event sets, as the domain's evolve sets it. Events missing here change no status.
const ARTICLE_STATUS: Record<string, string | ((data: Record<string, unknown>) => string)> = {
  ArticleQueued: 'queued',
  ArticleResearchStarted: 'researching',
  ArticleResearched: 'writing',
  ArticleDrafted: (data) => (data.purpose === 'refresh' ? 'writing' : 'draft'),
  ArticleFailed: 'failed',
  ArticleRetried: (data) => String(data.step),
  ArticlePublishRequested: 'publishing',
  ArticlePullRequestOpened: 'pr_open',
  ArticleMerged: 'merged',
  ArticleClosed: 'closed',
  ArticleRefreshRequested: 'researching',
};
const TOPIC_STATUS: Record<string, string | ((data: Record<string, unknown>) => string)> = {
  TopicCreated: (data) => String(data.status),
  TopicApproved: 'approved',
  TopicRejected: 'rejected',
  TopicScheduled: 'scheduled',
  TopicUnscheduled: 'approved',
  TopicWritten: 'written',
};
const PROJECT_STATUS: Record<string, string> = {
  ProjectCreated: 'active', ProjectPaused: 'paused', ProjectResumed: 'active',
  BrandCrawlRequested: 'pending', BrandCrawled: 'done', BrandCrawlFailed: 'failed',
  TopicResearchRequested: 'running', TopicResearchCompleted: 'done', TopicResearchFailed: 'failed',
};
const CRAWL_EVENTS = new Set(['BrandCrawlRequested', 'BrandCrawled', 'BrandCrawlFailed']);

const statusOf = (table: Record<string, string | ((data: Record<string, unknown>) => string)>, event: StoredEvent) => {
  const rule = table[event.type];
  return typeof rule === 'function' ? rule(event.data) : rule;
};

/** The owner an article's or topic's first event names (ArticleQueued, TopicCreated); null for other events. */
export function ownerFromFirstEvent(event: StoredEvent): Owner | null {
  const { projectId, topicId } = event.data as { projectId?: unknown; topicId?: unknown };
  if (typeof projectId !== 'string') return null;
  return event.type === 'ArticleQueued' && typeof topicId === 'string' ? { projectId, topicId } : { projectId };
}

/** The id the event's stream is named by (`article-art_…` → `art_…`). */
export const entityIdOf = (event: StoredEvent): string => event.stream.slice(event.stream.indexOf('-') + 1);

/** A stored event as the stream sends it: ids, the event type and the status it sets, nothing else of its data. */
export function toLiveChange(event: StoredEvent, owner: Owner): LiveChange {
  const category = streamCategory(event.stream);
  const at = typeof event.data.at === 'string' ? event.data.at : event.createdAt;
  const base = { id: event.position.toString(), event: event.type, projectId: owner.projectId, at };
  if (category === ARTICLE_CATEGORY) {
    return withStatus({ ...base, kind: 'article', articleId: entityIdOf(event), ...(owner.topicId ? { topicId: owner.topicId } : {}) }, statusOf(ARTICLE_STATUS, event));
  }
  if (category === TOPIC_CATEGORY) {
    const articleId = typeof event.data.articleId === 'string' ? { articleId: event.data.articleId } : {};
    return withStatus({ ...base, kind: 'topic', topicId: entityIdOf(event), ...articleId }, statusOf(TOPIC_STATUS, event));
  }
  return withStatus({ ...base, kind: CRAWL_EVENTS.has(event.type) ? 'crawl' : 'project' }, PROJECT_STATUS[event.type]);
}

const withStatus = (change: LiveChange, status: string | undefined): LiveChange => (status === undefined ? change : { ...change, status });

import type { StoredEvent } from '../../eventstore/port.ts';
import { streamCategory } from '../../eventstore/port.ts';
import {
  ARTICLE_CATEGORY,
  evolveArticle,
  initialArticle,
  type ActiveArticle,
  type ArticleEvent,
  type ArticleStatus,
} from '../../domain/articles/article.ts';
import {
  evolveProject,
  PROJECT_CATEGORY,
  type ActiveProject,
  type ProjectEvent,
} from '../../domain/projects/project.ts';
import {
  evolveTopic,
  initialTopic,
  TOPIC_CATEGORY,
  type ActiveTopic,
  type TopicEvent,
  type TopicStatus,
} from '../../domain/topics/topic.ts';
import type { LiveChange } from './schemas.ts';

/** The log categories the live stream reads. */
export const LIVE_CATEGORIES = [PROJECT_CATEGORY, TOPIC_CATEGORY, ARTICLE_CATEGORY] as const;

/** Which project (and topic) an article or topic belongs to: its events after the first do not say. */
export type Owner = { projectId: string; topicId?: string };

// The status an event sets is read off the domain's own evolve, so the live stream cannot drift
// from it: the event is folded onto a probe state whose statuses no event sets, and a status that
// comes out was set by the event. An event that sets none (or that the fold cannot read) has none.
const UNSET = '(unset)';
const unset = <T>() => UNSET as unknown as T;

const ARTICLE_PROBE: ActiveArticle = {
  ...(evolveArticle(initialArticle(), {
    type: 'ArticleQueued',
    data: {
      articleId: '',
      topicId: '',
      projectId: '',
      title: '',
      keyword: null,
      brief: null,
      trigger: 'api',
      at: '',
    },
  }) as ActiveArticle),
  status: unset<ArticleStatus>(),
};
const TOPIC_PROBE: ActiveTopic = {
  ...(evolveTopic(initialTopic(), {
    type: 'TopicCreated',
    data: {
      topicId: '',
      projectId: '',
      title: '',
      keyword: null,
      brief: null,
      status: 'approved',
      scheduledFor: null,
      priority: 0,
      source: 'api',
      runId: null,
      rationale: null,
      at: '',
    },
  }) as ActiveTopic),
  status: unset<TopicStatus>(),
};
const PROJECT_PROBE: ActiveProject = {
  status: unset<ActiveProject['status']>(),
  id: '',
  accountId: '',
  name: '',
  websiteUrl: '',
  blogUrl: null,
  sitemapUrl: null,
  settings: {} as ActiveProject['settings'],
  crawl: { status: unset<'pending'>(), crawlId: '', requestedAt: '' },
  brand: null,
  editedParts: [],
  pages: [],
  research: { runId: '', status: unset<'running'>() },
};

function statusSet(fold: () => string | undefined): string | undefined {
  try {
    const status = fold();
    return status === UNSET ? undefined : status;
  } catch {
    return undefined;
  }
}
const articleStatusSetBy = (event: StoredEvent) =>
  statusSet(() => evolveArticle(ARTICLE_PROBE, event as unknown as ArticleEvent).status);
const topicStatusSetBy = (event: StoredEvent) =>
  statusSet(() => evolveTopic(TOPIC_PROBE, event as unknown as TopicEvent).status);

/** A project event sets the project's status, else its crawl's (kind `crawl`), else its topic research's. */
function projectChangeOf(event: StoredEvent): {
  kind: 'project' | 'crawl';
  status: string | undefined;
} {
  const after = (() => {
    try {
      return evolveProject(PROJECT_PROBE, event as unknown as ProjectEvent);
    } catch {
      return PROJECT_PROBE;
    }
  })();
  if (after.status === 'none') return { kind: 'project', status: undefined };
  if (after.status !== PROJECT_PROBE.status) return { kind: 'project', status: after.status };
  if (after.crawl.status !== PROJECT_PROBE.crawl.status)
    return { kind: 'crawl', status: after.crawl.status };
  return { kind: 'project', status: statusSet(() => after.research?.status) };
}

/** The owner an article's or topic's first event names (ArticleQueued, TopicCreated); null for other events. */
export function ownerFromFirstEvent(event: StoredEvent): Owner | null {
  const { projectId, topicId } = event.data as { projectId?: unknown; topicId?: unknown };
  if (typeof projectId !== 'string') return null;
  return event.type === 'ArticleQueued' && typeof topicId === 'string'
    ? { projectId, topicId }
    : { projectId };
}

/** The id the event's stream is named by (`article-art_…` → `art_…`). */
export const entityIdOf = (event: StoredEvent): string =>
  event.stream.slice(event.stream.indexOf('-') + 1);

/** A stored event as the stream sends it: ids, the event type and the status it sets, nothing else of its data. */
export function toLiveChange(event: StoredEvent, owner: Owner): LiveChange {
  const category = streamCategory(event.stream);
  const at = typeof event.data.at === 'string' ? event.data.at : event.createdAt;
  const base = { id: event.position.toString(), event: event.type, projectId: owner.projectId, at };
  if (category === ARTICLE_CATEGORY) {
    return withStatus(
      {
        ...base,
        kind: 'article',
        articleId: entityIdOf(event),
        ...(owner.topicId ? { topicId: owner.topicId } : {}),
      },
      articleStatusSetBy(event),
    );
  }
  if (category === TOPIC_CATEGORY) {
    const articleId =
      typeof event.data.articleId === 'string' ? { articleId: event.data.articleId } : {};
    return withStatus(
      { ...base, kind: 'topic', topicId: entityIdOf(event), ...articleId },
      topicStatusSetBy(event),
    );
  }
  const { kind, status } = projectChangeOf(event);
  return withStatus({ ...base, kind }, status);
}

const withStatus = (change: LiveChange, status: string | undefined): LiveChange =>
  status === undefined ? change : { ...change, status };

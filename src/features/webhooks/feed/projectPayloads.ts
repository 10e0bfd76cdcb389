import { topics as topicsProjection, type TopicDoc } from '../../../../projections/topics.ts';
import type { EventStore, StoredEvent } from '../../../eventstore/port.ts';
import { streamName } from '../../../eventstore/port.ts';
import {
  evolveProject,
  initialProject,
  type Project,
  type ProjectEvent,
} from '../../../domain/projects/project.ts';
import { TOPIC_CATEGORY } from '../../../domain/topics/topic.ts';
import { otherStreamAt, streamUpTo } from './streamAt.ts';

export const PROJECT_SOURCE_EVENTS: readonly string[] = [
  'BrandCrawled',
  'BrandCrawlFailed',
  'TopicResearchCompleted',
  'TopicResearchFailed',
];

type ProjectPublicEvent = { type: string; data: Record<string, unknown> };

async function projectAt(
  store: EventStore,
  event: StoredEvent,
): Promise<{ id: string; name: string; websiteUrl: string } | null> {
  const state = (await streamUpTo(store, event)).reduce<Project>(
    (s, e) => evolveProject(s, e as unknown as ProjectEvent),
    initialProject(),
  );
  return state.status === 'none'
    ? null
    : { id: state.id, name: state.name, websiteUrl: state.websiteUrl };
}

/** `brand.crawled`: the learned profile as it was saved (parts a user edited are kept), and what the crawl read. */
async function brandCrawled(store: EventStore, event: StoredEvent): Promise<ProjectPublicEvent> {
  const data = (event as unknown as Extract<ProjectEvent, { type: 'BrandCrawled' }>).data;
  return {
    type: 'brand.crawled',
    data: {
      status: 'succeeded',
      failureReason: null,
      projectId: data.projectId,
      project: await projectAt(store, event),
      crawlId: data.crawlId,
      brand: data.profile,
      changedParts: data.changedParts,
      keptEditedParts: data.keptEditedParts,
      pagesCrawled: data.pages.length,
      pages: data.pages.map(({ url, title }) => ({ url, title })),
      provider: data.provider,
      model: data.model,
      crawledAt: data.at,
    },
  };
}

/** `topics.suggested`: the run and the topics it suggested, each as it was when the run completed. */
async function topicsSuggested(store: EventStore, event: StoredEvent): Promise<ProjectPublicEvent> {
  const data = (event as unknown as Extract<ProjectEvent, { type: 'TopicResearchCompleted' }>).data;
  const topics = [];
  for (const topicId of data.topicIds) {
    const history = await otherStreamAt(store, streamName(TOPIC_CATEGORY, topicId), event.position);
    const doc = history.reduce<TopicDoc | null>(
      (current, e) => topicsProjection.evolve(current, e),
      null,
    );
    if (!doc) continue;
    const { id, title, keyword, brief, status, priority, rationale, scheduledFor, createdAt } = doc;
    topics.push({
      id,
      title,
      keyword,
      brief,
      status,
      priority,
      rationale,
      scheduledFor,
      createdAt,
    });
  }
  return {
    type: 'topics.suggested',
    data: {
      status: 'succeeded',
      failureReason: null,
      projectId: data.projectId,
      project: await projectAt(store, event),
      runId: data.runId,
      topics,
      provider: data.provider,
      model: data.model,
      completedAt: data.at,
    },
  };
}

/**
 * A crawl or research run that failed still ends with its event, so a client waiting for it is
 * told (with the reason) instead of waiting forever; `status` tells the two apart.
 */
async function runFailed(
  store: EventStore,
  event: StoredEvent,
  type: 'brand.crawled' | 'topics.suggested',
): Promise<ProjectPublicEvent> {
  const data = event.data as {
    projectId: string;
    crawlId?: string;
    runId?: string;
    reason: string;
    at: string;
  };
  const run =
    type === 'brand.crawled'
      ? {
          crawlId: data.crawlId,
          brand: null,
          changedParts: [],
          keptEditedParts: [],
          pagesCrawled: 0,
          pages: [],
          crawledAt: data.at,
        }
      : { runId: data.runId, topics: [], completedAt: data.at };
  return {
    type,
    data: {
      status: 'failed',
      failureReason: data.reason,
      projectId: data.projectId,
      project: await projectAt(store, event),
      ...run,
      provider: null,
      model: null,
    },
  };
}

export async function projectPublicEvents(
  store: EventStore,
  event: StoredEvent,
): Promise<ProjectPublicEvent[]> {
  if (event.type === 'BrandCrawled') return [await brandCrawled(store, event)];
  if (event.type === 'TopicResearchCompleted') return [await topicsSuggested(store, event)];
  if (event.type === 'BrandCrawlFailed') return [await runFailed(store, event, 'brand.crawled')];
  if (event.type === 'TopicResearchFailed')
    return [await runFailed(store, event, 'topics.suggested')];
  return [];
}

import { describe, expect, test } from 'vitest';
import {
  evolveArticle,
  initialArticle,
  type ArticleEvent,
} from '../../../src/domain/articles/article.ts';
import {
  evolveProject,
  initialProject,
  type ProjectEvent,
} from '../../../src/domain/projects/project.ts';
import { evolveTopic, initialTopic, type TopicEvent } from '../../../src/domain/topics/topic.ts';
import type { StoredEvent } from '../../../src/eventstore/port.ts';
import { toLiveChange } from '../../../src/features/live/changes.ts';
import {
  articleEvents,
  at,
  everyHistory,
  failedAt,
  refreshWritingHistory,
} from '../../domain/articles/articleHistory.ts';

/** The live stream's status of each event must be the status the domain's evolve gives the entity. */
const owner = { projectId: 'prj_1', topicId: 'tpc_1' };
const stored = (
  stream: string,
  event: { type: string; data: object },
  index: number,
): StoredEvent => ({
  id: `evt-${index}`,
  type: event.type,
  data: event.data as Record<string, unknown>,
  stream,
  revision: BigInt(index),
  position: BigInt(index),
  createdAt: at,
  metadata: {
    accountId: 'acc_1',
    actor: { kind: 'system', worker: 'test' },
    correlationId: 'c',
    causationId: 'c',
    requestId: 'r',
  },
});

/** Folds the history; at each event, what the live stream says and what evolve made of the status. */
function walk<S extends { status: string }, E extends { type: string; data: object }>(
  stream: string,
  initial: S,
  evolve: (state: S, event: E) => S,
  history: E[],
  read = (state: S) => state.status,
) {
  let state = initial;
  return history.map((event, index) => {
    const before = read(state);
    state = evolve(state, event);
    return {
      event: event.type,
      before,
      after: read(state),
      live: toLiveChange(stored(stream, event, index), owner),
    };
  });
}

function expectAgreement(steps: ReturnType<typeof walk>) {
  for (const { event, before, after, live } of steps) {
    if (after !== before) expect({ event, status: live.status }).toEqual({ event, status: after });
    if (live.status !== undefined)
      expect({ event, status: live.status }).toEqual({ event, status: after });
  }
}

const e = articleEvents;
const articleHistories: Array<[string, ArticleEvent[]]> = [
  ...everyHistory,
  [
    'a refresh drafted (writing again, not draft)',
    [...refreshWritingHistory, e.drafted('refresh', 2)],
  ],
  ['retried after failing to research', [...failedAt('researching'), e.retried('researching')]],
];

describe('article events', () => {
  test.each(articleHistories)('%s', (_name, history) => {
    expectAgreement(walk('article-art_1', initialArticle(), evolveArticle, history));
  });
});

const topic = (type: TopicEvent['type'], data: object): TopicEvent =>
  ({ type, data: { topicId: 'tpc_1', at, ...data } }) as TopicEvent;
const created = (status: 'approved' | 'suggested' | 'scheduled') =>
  topic('TopicCreated', {
    projectId: 'prj_1',
    title: 'Cold brew',
    keyword: null,
    brief: null,
    status,
    scheduledFor: null,
    priority: 50,
    source: 'api',
    runId: null,
    rationale: null,
  });

test.each<[string, TopicEvent[]]>([
  [
    'suggested, scheduled, unscheduled, written',
    [
      created('suggested'),
      topic('TopicScheduled', { scheduledFor: at }),
      topic('TopicUnscheduled', {}),
      topic('TopicEdited', { title: 'Iced' }),
      topic('TopicWritten', {
        articleId: 'art_1',
        projectId: 'prj_1',
        title: 'Iced',
        keyword: null,
        brief: null,
        trigger: 'api',
      }),
    ],
  ],
  [
    'approved, rejected, approved again',
    [
      created('approved'),
      topic('TopicRejected', {}),
      topic('TopicApproved', {}),
      topic('TopicReprioritized', { priority: 90 }),
    ],
  ],
])('topic: %s', (_name, history) => {
  expectAgreement(walk('topic-tpc_1', initialTopic(), evolveTopic, history));
});

const project = (type: ProjectEvent['type'], data: object): ProjectEvent =>
  ({ type, data: { projectId: 'prj_1', at, ...data } }) as ProjectEvent;
const projectHistory: ProjectEvent[] = [
  project('ProjectCreated', {
    accountId: 'acc_1',
    name: 'Acme',
    websiteUrl: 'https://acme.example',
    blogUrl: null,
    sitemapUrl: null,
    settings: {},
  }),
  project('BrandCrawlRequested', {
    crawlId: 'crl_1',
    reason: 'project_created',
    overwriteEdited: false,
  }),
  project('BrandCrawlFailed', { crawlId: 'crl_1', reason: 'down' }),
  project('BrandCrawlRequested', { crawlId: 'crl_2', reason: 'requested', overwriteEdited: true }),
  project('BrandCrawled', {
    crawlId: 'crl_2',
    profile: null,
    pages: [],
    changedParts: [],
    keptEditedParts: [],
    provider: 'offline',
    model: null,
  }),
  project('ProjectPaused', {}),
  project('ProjectRenamed', { name: 'Acme Co' }),
  project('ProjectResumed', {}),
  project('TopicResearchRequested', { runId: 'run_1', reason: 'requested' }),
  project('TopicResearchFailed', { runId: 'run_1', reason: 'no model' }),
  project('TopicResearchRequested', { runId: 'run_2', reason: 'cadence' }),
  project('TopicResearchCompleted', {
    runId: 'run_2',
    topicIds: [],
    provider: 'offline',
    model: null,
  }),
];

test("project events: the project's status, its crawl's (as kind crawl) and its topic research's, as evolve sets them", () => {
  const states = [
    (state: ReturnType<typeof initialProject>) => state.status,
    (state: ReturnType<typeof initialProject>) =>
      state.status === 'none' ? 'none' : state.crawl.status,
    (state: ReturnType<typeof initialProject>) =>
      state.status === 'none' ? 'none' : (state.research?.status ?? 'none'),
  ];
  const [own, crawl, research] = states.map((read) =>
    walk('project-prj_1', initialProject(), evolveProject, projectHistory, read),
  );
  projectHistory.forEach((event, i) => {
    const live = own[i].live;
    const changed =
      own[i].after !== own[i].before
        ? own[i]
        : crawl[i].after !== crawl[i].before
          ? crawl[i]
          : research[i].after !== research[i].before
            ? research[i]
            : null;
    const said = { event: event.type, kind: live.kind, status: live.status };
    if (changed)
      expect(said).toEqual({
        event: event.type,
        kind: changed === crawl[i] ? 'crawl' : 'project',
        status: changed.after,
      });
    else if (live.kind === 'crawl')
      expect(said).toEqual({ event: event.type, kind: 'crawl', status: crawl[i].after });
    else if (live.status !== undefined)
      expect([own[i].after, research[i].after]).toContain(live.status);
  });
});

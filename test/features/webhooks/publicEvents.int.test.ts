import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { articleStream, type ArticleCommand } from '../../../src/domain/articles/decide.ts';
import {
  handleCommand,
  type DomainEvent,
  type StreamType,
} from '../../../src/eventstore/handleCommand.ts';
import type { EventStore, StoredEvent } from '../../../src/eventstore/port.ts';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite.ts';
import { projectStream } from '../../../src/domain/projects/decide.ts';
import { emptyBrand } from '../../../src/domain/projects/project.ts';
import { DEFAULT_SETTINGS } from '../../../src/domain/projects/settings.ts';
import { topicStream } from '../../../src/domain/topics/decide.ts';
import { createArticleFolds } from '../../../src/features/webhooks/feed/articlePayloads.ts';
import {
  PUBLIC_EVENT_SOURCES,
  publicEventsFor,
} from '../../../src/features/webhooks/feed/publicEvents.ts';
import {
  EVENT_DATA_SCHEMAS,
  type CatalogueEventType,
} from '../../../src/features/webhooks/catalogue/payloadSchemas.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../src/domain/webhooks/eventTypes.ts';

let dir: string;
let store: EventStore;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'inkstream-public-events-'));
  store = openSqliteEventStore(join(dir, 'events.sqlite'));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 10, minute)).toISOString();
const generation = {
  provider: 'test',
  model: null,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
};

async function run<S, E extends DomainEvent, C>(
  type: StreamType<S, E, C>,
  id: string,
  command: C,
): Promise<StoredEvent[]> {
  const commandId = `cmd-${++n}`;
  const result = await handleCommand(store, type, id, command, {
    accountId: 'acc_publicevents',
    actor: { kind: 'system', worker: 'test' },
    correlationId: commandId,
    requestId: commandId,
    commandId,
  });
  const stored = await store.readStream(`${type.category}-${id}`);
  return stored.filter((event) => result.events.some((appended) => appended.id === event.id));
}

const article = (id: string, command: ArticleCommand) => run(articleStream, id, command);

async function draftedArticle(id: string): Promise<StoredEvent[]> {
  const events = [
    ...(await article(id, {
      type: 'QueueArticle',
      articleId: id,
      topicId: 'tpc_1',
      projectId: 'prj_1',
      title: 'First title',
      keyword: 'tea',
      brief: null,
      trigger: 'api',
      at: at(0),
    })),
    ...(await article(id, { type: 'StartResearch', at: at(1) })),
    ...(await article(id, {
      type: 'RecordResearch',
      outline: [],
      keyPoints: [],
      sources: [{ url: 'https://s.example', title: 'S' }],
      generation,
      at: at(2),
    })),
    ...(await article(id, {
      type: 'RecordDraft',
      version: 1,
      mdx: '---\ntitle: Drafted title\n---\n\nBody.\n',
      slug: 'drafted',
      title: 'Drafted title',
      wordCount: 1,
      cover: null,
      purpose: 'write',
      generation,
      at: at(3),
    })),
  ];
  return events;
}

test('an article event is published with the article as it was at that event, not as it is now', async () => {
  const [queued, started] = await draftedArticle('art_state_at_event');
  const [first] = await publicEventsFor(store, queued);
  expect(first.envelope).toMatchObject({
    type: 'article.status_changed',
    createdAt: at(0),
    data: {
      id: 'art_state_at_event',
      status: 'queued',
      previousStatus: null,
      title: 'First title',
      version: 0,
      content: null,
      prUrl: null,
    },
  });
  const [second] = await publicEventsFor(store, started);
  expect(second.envelope.data).toMatchObject({ status: 'researching', previousStatus: 'queued' });
  expect(second.accountId).toBe('acc_publicevents');
  expect(first.seq < second.seq).toBe(true);
});

test('ids and bytes are the same every time; one event can give two public events with distinct ids', async () => {
  const id = 'art_merged';
  await draftedArticle(id);
  await article(id, { type: 'ApproveArticle', mode: 'pr', at: at(4) });
  await article(id, {
    type: 'RecordPullRequest',
    prNumber: 7,
    prUrl: 'https://github.example/o/r/pull/7',
    branch: 'inkstream/merged',
    commitSha: 'c1',
    path: 'posts/merged.mdx',
    at: at(5),
  });
  const [merged] = await article(id, {
    type: 'RecordMerged',
    commitSha: 'c2',
    prUrl: 'https://github.example/o/r/pull/7',
    path: 'posts/merged.mdx',
    mergedBy: 'octocat',
    at: at(6),
  });
  const once = await publicEventsFor(store, merged);
  const again = await publicEventsFor(store, merged);
  expect(once.map((event) => event.envelope.type)).toEqual([
    'article.status_changed',
    'article.published',
  ]);
  expect(once[0].envelope.id).not.toBe(once[1].envelope.id);
  expect(again.map((event) => event.body)).toEqual(once.map((event) => event.body));
  expect(once[1].envelope.data).toMatchObject({
    status: 'merged',
    previousStatus: 'pr_open',
    prUrl: 'https://github.example/o/r/pull/7',
    prNumber: 7,
    publishedAt: at(6),
    slug: 'drafted',
    frontmatter: { title: 'Drafted title' },
  });
});

test('article.revised carries the revision summary and diff stats; a revision is not a status change', async () => {
  const id = 'art_revised';
  await draftedArticle(id);
  await article(id, {
    type: 'RequestRevision',
    revisionId: 'rev_1',
    instruction: 'shorter',
    source: { kind: 'api' },
    at: at(7),
  });
  const [revised] = await article(id, {
    type: 'RecordRevision',
    revisionId: 'rev_1',
    version: 2,
    mdx: '---\ntitle: Drafted title\n---\n\nShorter.\n',
    summary: 'Made it shorter.',
    diff: { addedLines: 1, removedLines: 1, addedWords: 1, removedWords: 1 },
    generation,
    at: at(8),
  });
  const events = await publicEventsFor(store, revised);
  expect(events.map((event) => event.envelope.type)).toEqual(['article.revised']);
  expect(events[0].envelope.data).toMatchObject({
    id,
    status: 'draft',
    version: 2,
    lastRevisionSummary: 'Made it shorter.',
    revision: {
      id: 'rev_1',
      version: 2,
      summary: 'Made it shorter.',
      diff: { addedLines: 1, removedLines: 1, addedWords: 1, removedWords: 1 },
    },
  });
});

test('brand.crawled carries the saved profile, the project and what was crawled', async () => {
  const projectId = 'prj_brand';
  await run(projectStream, projectId, {
    type: 'CreateProject',
    projectId,
    accountId: 'acc_publicevents',
    name: 'Fernleaf',
    websiteUrl: 'https://fernleaf.example',
    blogUrl: null,
    sitemapUrl: null,
    settings: DEFAULT_SETTINGS,
    crawlId: 'crl_1',
    at: at(0),
  });
  const profile = { ...emptyBrand(), voiceTraits: ['calm'] };
  const [crawled] = await run(projectStream, projectId, {
    type: 'RecordBrandCrawled',
    crawlId: 'crl_1',
    learned: profile,
    provider: 'offline',
    model: null,
    at: at(1),
    pages: [
      {
        url: 'https://fernleaf.example/',
        title: 'Home',
        description: '',
        headings: [],
        text: 'Tea.',
      },
    ],
  });
  await run(projectStream, projectId, { type: 'UpdateProject', name: 'Fernleaf Tea', at: at(2) });
  const [event] = await publicEventsFor(store, crawled);
  expect(event.envelope).toMatchObject({
    type: 'brand.crawled',
    createdAt: at(1),
    data: {
      status: 'succeeded',
      failureReason: null,
      projectId,
      project: { id: projectId, name: 'Fernleaf', websiteUrl: 'https://fernleaf.example' },
      crawlId: 'crl_1',
      brand: { voiceTraits: ['calm'] },
      changedParts: ['voiceTraits'],
      keptEditedParts: [],
      pagesCrawled: 1,
      pages: [{ url: 'https://fernleaf.example/', title: 'Home' }],
      provider: 'offline',
      model: null,
      crawledAt: at(1),
    },
  });
});

test('a failed crawl and a failed research run still end with brand.crawled and topics.suggested, saying why', async () => {
  const projectId = 'prj_failed_runs';
  await run(projectStream, projectId, {
    type: 'CreateProject',
    projectId,
    accountId: 'acc_publicevents',
    name: 'Down',
    websiteUrl: 'https://down.example',
    blogUrl: null,
    sitemapUrl: null,
    settings: DEFAULT_SETTINGS,
    crawlId: 'crl_down',
    at: at(0),
  });
  const [crawlFailed] = await run(projectStream, projectId, {
    type: 'RecordCrawlFailed',
    crawlId: 'crl_down',
    reason: 'Could not reach https://down.example/',
    at: at(1),
  });
  expect((await publicEventsFor(store, crawlFailed)).map((e) => e.envelope)).toMatchObject([
    {
      type: 'brand.crawled',
      data: {
        status: 'failed',
        failureReason: 'Could not reach https://down.example/',
        projectId,
        crawlId: 'crl_down',
        brand: null,
        pagesCrawled: 0,
      },
    },
  ]);
  await run(projectStream, projectId, {
    type: 'RequestTopicResearch',
    runId: 'run_down',
    reason: 'requested',
    at: at(2),
  });
  const [researchFailed] = await run(projectStream, projectId, {
    type: 'RecordResearchFailed',
    runId: 'run_down',
    reason: 'The model refused.',
    at: at(3),
  });
  expect((await publicEventsFor(store, researchFailed)).map((e) => e.envelope)).toMatchObject([
    {
      type: 'topics.suggested',
      data: {
        status: 'failed',
        failureReason: 'The model refused.',
        projectId,
        runId: 'run_down',
        topics: [],
      },
    },
  ]);
});

test("topics.suggested lists the run's topics as they were when it completed", async () => {
  const projectId = 'prj_topics';
  await run(projectStream, projectId, {
    type: 'CreateProject',
    projectId,
    accountId: 'acc_publicevents',
    name: 'Topics',
    websiteUrl: 'https://topics.example',
    blogUrl: null,
    sitemapUrl: null,
    settings: DEFAULT_SETTINGS,
    crawlId: 'crl_2',
    at: at(0),
  });
  await run(projectStream, projectId, {
    type: 'RequestTopicResearch',
    runId: 'run_1',
    reason: 'requested',
    at: at(1),
  });
  for (const [topicId, title] of [
    ['tpc_a', 'Green tea at 80 °C'],
    ['tpc_b', 'Oolong, three ways'],
  ]) {
    await run(topicStream, topicId, {
      type: 'CreateTopic',
      topic: {
        topicId,
        projectId,
        title,
        keyword: null,
        brief: 'why',
        status: 'suggested',
        scheduledFor: null,
        priority: 50,
        source: 'research',
        runId: 'run_1',
        rationale: 'asked often',
        at: at(2),
      },
    });
  }
  const [completed] = await run(projectStream, projectId, {
    type: 'RecordResearchCompleted',
    runId: 'run_1',
    topicIds: ['tpc_a', 'tpc_b'],
    provider: 'offline',
    model: null,
    at: at(3),
  });
  await run(topicStream, 'tpc_a', { type: 'UpdateTopic', status: 'rejected', at: at(4) });
  const [event] = await publicEventsFor(store, completed);
  expect(event.envelope).toMatchObject({
    type: 'topics.suggested',
    data: {
      projectId,
      project: { name: 'Topics' },
      runId: 'run_1',
      provider: 'offline',
      completedAt: at(3),
      topics: [
        {
          id: 'tpc_a',
          title: 'Green tea at 80 °C',
          status: 'suggested',
          priority: 50,
          rationale: 'asked often',
          brief: 'why',
        },
        { id: 'tpc_b', title: 'Oolong, three ways', status: 'suggested' },
      ],
    },
  });
});

test('events that are not public give nothing', async () => {
  const [created] = await run(projectStream, 'prj_quiet', {
    type: 'CreateProject',
    projectId: 'prj_quiet',
    accountId: 'acc_publicevents',
    name: 'Quiet',
    websiteUrl: 'https://quiet.example',
    blogUrl: null,
    sitemapUrl: null,
    settings: DEFAULT_SETTINGS,
    crawlId: 'crl_3',
    at: at(0),
  });
  expect(await publicEventsFor(store, created)).toEqual([]);
});

test('folding as the outbox does (remembering the last fold of each stream) gives the same bytes as folding from scratch', async () => {
  const id = 'art_folds';
  await draftedArticle(id);
  await article(id, {
    type: 'RequestRevision',
    revisionId: 'rev_f',
    instruction: 'x',
    source: { kind: 'api' },
    at: at(9),
  });
  await article(id, { type: 'ApproveArticle', mode: 'pr', at: at(10) });
  const all = await store.readStream(`article-${id}`);
  const folds = createArticleFolds();
  for (const event of all) {
    const fresh = (await publicEventsFor(store, event)).map((e) => e.body);
    if (PUBLIC_EVENT_SOURCES.includes(event.type))
      expect((await publicEventsFor(store, event, folds)).map((e) => e.body)).toEqual(fresh);
    else folds.advance(event);
  }
  const approved = await publicEventsFor(store, all[all.length - 1], folds);
  expect(approved[0].envelope.data).toMatchObject({ status: 'publishing', pendingRevisions: 1 });
});

test('every public event these tests produced matches the schema the event catalogue publishes for its type', async () => {
  const types = new Set<string>();
  for (const event of await store.readAll({ maxCount: 10_000 })) {
    for (const { envelope } of await publicEventsFor(store, event)) {
      const parsed = EVENT_DATA_SCHEMAS[envelope.type as CatalogueEventType].safeParse(
        envelope.data,
      );
      expect(parsed.error?.issues, envelope.type).toBeUndefined();
      types.add(envelope.type);
    }
  }
  expect([...types].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
});

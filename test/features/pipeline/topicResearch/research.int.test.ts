import { expect, test } from 'vitest';
import { createPipelineContext } from '../../../../src/features/pipeline/context.ts';
import { researchTopicId } from '../../../../src/features/pipeline/derivedIds.ts';
import { researchProcess } from '../../../../src/features/pipeline/topicResearch/research.ts';
import { projectStream } from '../../../../src/domain/projects/decide.ts';
import { topicStream } from '../../../../src/domain/topics/decide.ts';
import { eventually } from '../../../support/eventually.ts';
import {
  recordingWriter,
  redeliver,
  stopBackgroundWork,
  streamEvents,
} from '../../../support/pipelineHarness.ts';
import { useSiteAndInkstream } from '../../../support/siteAndInkstream.ts';

const world = useSiteAndInkstream();

type Topic = {
  id: string;
  title: string;
  keyword: string;
  status: string;
  runId: string;
  rationale: string;
};

async function crawled(): Promise<string> {
  const id = (
    await world.app.api().post('/projects', { name: 'Crumb', websiteUrl: world.site.origin })
  ).body.project.id as string;
  await eventually(
    () => world.app.api().get(`/projects/${id}`),
    (r) => r.body.project.crawl.status === 'done',
    { what: 'the crawl' },
  );
  return id;
}

async function runResearch(projectId: string): Promise<{ runId: string; topics: Topic[] }> {
  const runId = (await world.app.api().post(`/projects/${projectId}/topics/suggest`)).body.run
    .id as string;
  const project = await eventually(
    () =>
      world.app
        .api()
        .get(`/projects/${projectId}`)
        .then((r) => r.body.project),
    (p) => p.research?.runId === runId && p.research.status !== 'running',
  );
  expect(project.research.status).toBe('done');
  const all = (await world.app.api().get(`/projects/${projectId}/topics?limit=200`)).body
    .topics as Topic[];
  return {
    runId,
    topics: project.research.topicIds.map((id: string) => all.find((topic) => topic.id === id)!),
  };
}

test('a run suggests 5–10 topics with rationale under ids derived from the run; rejected ideas do not come back', async () => {
  const projectId = await crawled();
  const first = await runResearch(projectId);
  expect(first.topics.length).toBeGreaterThanOrEqual(5);
  expect(first.topics.length).toBeLessThanOrEqual(10);
  expect(first.topics.map((topic) => topic.id)).toEqual(
    first.topics.map((_, index) => researchTopicId(first.runId, index)),
  );
  for (const topic of first.topics)
    expect(topic).toMatchObject({
      status: 'suggested',
      source: 'research',
      runId: first.runId,
      rationale: expect.any(String),
    });

  for (const topic of first.topics)
    await world.app.api().patch(`/topics/${topic.id}`, { status: 'rejected' });
  const second = await runResearch(projectId);
  const rejected = new Set(
    first.topics.flatMap((topic) => [topic.title.toLowerCase(), topic.keyword.toLowerCase()]),
  );
  expect(second.topics.length).toBeGreaterThanOrEqual(1);
  for (const topic of second.topics) {
    expect(rejected.has(topic.title.toLowerCase())).toBe(false);
    expect(rejected.has(topic.keyword.toLowerCase())).toBe(false);
  }
  const completed = (await streamEvents(world.app.platform, `project-${projectId}`)).filter(
    (event) => event.type === 'TopicResearchCompleted',
  );
  expect(completed.map((event) => event.data.topicIds)).toEqual([
    first.topics.map((t) => t.id),
    second.topics.map((t) => t.id),
  ]);
});

test('a run replayed after a crash mid-way finishes with the topics already created, asking the model nothing more', async () => {
  const projectId = await crawled();
  await stopBackgroundWork(world.app);
  const writer = recordingWriter();
  const handler = researchProcess(createPipelineContext(world.app.platform, { writer }));
  const runId = world.app.platform.ids.next('run');
  await world.app.platform.commands.execute(
    projectStream,
    projectId,
    {
      type: 'RequestTopicResearch',
      runId,
      reason: 'requested',
      at: world.app.platform.clock.now(),
    },
    {
      accountId: 'acc',
      actor: { kind: 'system', worker: 'test' },
      correlationId: runId,
      requestId: runId,
      commandId: runId,
    },
  );
  const requested = (await streamEvents(world.app.platform, `project-${projectId}`)).at(-1)!;
  // An earlier attempt created the run's first two topics, then the process died before the run completed.
  const createdBefore = [0, 1].map((index) => researchTopicId(runId, index));
  for (const topicId of createdBefore) {
    await world.app.platform.commands.execute(
      topicStream,
      topicId,
      {
        type: 'CreateTopic',
        topic: {
          topicId,
          projectId,
          title: `Idea ${topicId}`,
          keyword: null,
          brief: null,
          status: 'suggested',
          scheduledFor: null,
          priority: 50,
          source: 'research',
          runId,
          rationale: 'from the first attempt',
          at: world.app.platform.clock.now(),
        },
      },
      {
        accountId: 'acc',
        actor: { kind: 'system', worker: 'test' },
        correlationId: runId,
        requestId: runId,
        commandId: topicId,
      },
    );
  }
  await handler.handle(requested);
  await redeliver(world.app.platform, handler, `project-${projectId}`);
  expect(writer.count('suggestTopics')).toBe(0);
  const completions = (await streamEvents(world.app.platform, `project-${projectId}`)).filter(
    (event) => event.type === 'TopicResearchCompleted' && event.data.runId === runId,
  );
  expect(completions.map((event) => event.data.topicIds)).toEqual([createdBefore]);
  for (const id of createdBefore)
    expect(
      (await streamEvents(world.app.platform, `topic-${id}`)).map((event) => event.type),
    ).toEqual(['TopicCreated']);
});

import { beforeAll, expect, test } from 'vitest';
import type { ArticleEvent } from '../../../../src/domain/articles/article.ts';
import { parseMdx } from '../../../../src/mdx/mdx.ts';
import { LlmError } from '../../../../src/integrations/llm/port.ts';
import { createPipelineContext } from '../../../../src/features/pipeline/context.ts';
import { reviseProcess } from '../../../../src/features/pipeline/writing/revise.ts';
import { writeProcess } from '../../../../src/features/pipeline/writing/write.ts';
import { eventually } from '../../../support/eventually.ts';
import type { TestInkstream } from '../../../support/inkstream.ts';
import {
  pump,
  recordingWriter,
  redeliver,
  stopBackgroundWork,
  streamEvents,
} from '../../../support/pipelineHarness.ts';
import { useSiteAndInkstream } from '../../../support/siteAndInkstream.ts';
import type { TestSite } from '../../../support/testSite.ts';

let app: TestInkstream;
let site: TestSite;
let projectId: string;
const world = useSiteAndInkstream();
beforeAll(async () => {
  ({ app, site } = world);
  projectId = (await app.api().post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
    .project.id;
  await eventually(
    () => app.api().get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status === 'done',
    { what: 'the crawl' },
  );
  await stopBackgroundWork(app);
});

test('queued revisions apply one at a time, oldest first; a failed one is recorded with its reason and the rest still apply', async () => {
  const writer = recordingWriter();
  const ctx = createPipelineContext(app.platform, { writer });
  const topic = (
    await app.api().post(`/projects/${projectId}/topics`, {
      title: 'Holiday pre-orders',
      keyword: 'holiday pre-orders',
    })
  ).body.topic;
  const articleId = (await app.api().post(`/topics/${topic.id}/write`)).body.article.id;
  await pump(app.platform, writeProcess(ctx), `article-${articleId}`);

  const instructions = [
    'Make it shorter.',
    'Add a section about pickup slots.',
    'Replace "Suggested outline" with "Planned sections".',
  ];
  const revisionIds: string[] = [];
  for (const instruction of instructions) {
    const queued = await app.api().post(`/articles/${articleId}/revise`, { instruction });
    expect(queued.status).toBe(202);
    revisionIds.push(queued.body.revision.id);
  }
  writer.failNext(
    'reviseArticle',
    new LlmError(
      'invalid_output',
      'The model\'s answer did not match the expected "article_revision" format.',
    ),
  );
  const revise = reviseProcess(ctx);
  await pump(app.platform, revise, `article-${articleId}`);

  const events = (await streamEvents(
    app.platform,
    `article-${articleId}`,
  )) as unknown as (ArticleEvent & { id: string })[];
  const outcomes = events.filter(
    (event) => event.type === 'ArticleRevised' || event.type === 'ArticleRevisionFailed',
  );
  expect(outcomes.map((event) => [event.type, event.data.revisionId])).toEqual([
    ['ArticleRevisionFailed', revisionIds[0]],
    ['ArticleRevised', revisionIds[1]],
    ['ArticleRevised', revisionIds[2]],
  ]);
  expect(
    writer.calls.filter((call) => call.method === 'reviseArticle').map((call) => call.subject),
  ).toEqual(instructions);
  const failed = outcomes[0].data as { reason: string };
  expect(failed.reason).toMatch(
    /The revision failed: .*article_revision.*POST \/api\/v1\/articles\/art_\w+\/revise again/,
  );
  const [second, third] = outcomes
    .slice(1)
    .map((event) => event.data as Extract<ArticleEvent, { type: 'ArticleRevised' }>['data']);
  expect([second.version, third.version]).toEqual([2, 3]);
  expect(second.summary.length).toBeGreaterThan(0);
  expect(second.diff.addedLines + second.diff.removedLines).toBeGreaterThan(0);
  expect(parseMdx(third.mdx).body).toContain('## Planned sections');
  expect(parseMdx(third.mdx).frontmatter.slug).toBe(parseMdx(second.mdx).frontmatter.slug);

  await redeliver(app.platform, revise, `article-${articleId}`);
  expect(writer.count('reviseArticle')).toBe(3);
  expect((await streamEvents(app.platform, `article-${articleId}`)).length).toBe(events.length);
  const read = await eventually(
    () => app.api().get(`/articles/${articleId}`),
    (r) => r.body.article.version === 3,
  );
  expect(read.body.article).toMatchObject({
    pendingRevisions: 0,
    lastRevisionSummary: third.summary,
  });
});

import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../src/accounts/account.ts';
import { articleStream } from '../../src/articles/decide.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

let app: TestInkstream;
beforeAll(async () => { app = await startInkstream(); });
afterAll(async () => { await app.close(); });

const generation = { provider: 'offline', model: null, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } };

/** An article written through the API, then moved along by the pipeline's own commands, as its workers would. */
async function writtenArticle(): Promise<{ articleId: string; projectId: string }> {
  const project = (await app.api().post('/projects', { name: 'Audit', websiteUrl: 'https://audit.example' })).body.project;
  const topic = (await app.api().post(`/projects/${project.id}/topics`, { title: 'How we audit', keyword: 'audit' })).body.topic;
  const article = (await app.api().post(`/topics/${topic.id}/write`)).body.article;
  const system = (step: string) => ({
    accountId: accountIdForName('test'), actor: { kind: 'system' as const, worker: 'pipeline.write' },
    correlationId: 'cor', requestId: 'req', commandId: `${article.id}:${step}`,
  });
  const at = app.services.clock.now();
  const run = (step: string, command: Parameters<typeof articleStream.decide>[0]) => app.services.execute(articleStream, article.id, command, system(step));
  await run('start', { type: 'StartResearch', at });
  await run('research', { type: 'RecordResearch', outline: [{ heading: 'Why', points: ['trust'] }], keyPoints: ['trust'], sources: [{ url: 'https://audit.example/about', title: 'About' }], generation, at });
  await run('draft', { type: 'RecordDraft', version: 1, mdx: '---\ntitle: How we audit\n---\nFirst draft.\n', slug: 'how-we-audit', title: 'How we audit', wordCount: 2, cover: null, purpose: 'write', generation, at });
  return { articleId: article.id, projectId: project.id };
}

test('an article\'s history lists every step in order with its actor and generation details', async () => {
  const { articleId } = await writtenArticle();
  const revise = await app.api().post(`/articles/${articleId}/revise`, { instruction: 'shorter' });
  expect(revise.status).toBe(202);
  const { body, status } = await app.api().get(`/articles/${articleId}/history`);
  expect(status).toBe(200);
  expect(body.history.map((entry: { type: string }) => entry.type)).toEqual([
    'ArticleQueued', 'ArticleResearchStarted', 'ArticleResearched', 'ArticleDrafted', 'ArticleRevisionRequested',
  ]);
  expect(body.history.map((entry: { revision: number }) => entry.revision)).toEqual([0, 1, 2, 3, 4]);
  expect(body.history[0].actor).toMatchObject({ kind: 'api_key', keyName: 'default' });
  expect(body.history[2]).toMatchObject({ actor: { kind: 'system', worker: 'pipeline.write' }, generation: { provider: 'offline' }, sources: [{ url: 'https://audit.example/about' }] });
  expect(body.history[4].data.instruction).toBe('shorter');
  expect(body.nextCursor).toBeNull();
});

test('history pages continue from the cursor without gaps', async () => {
  const { articleId } = await writtenArticle();
  const first = await app.api().get(`/articles/${articleId}/history?limit=3`);
  expect(first.body.history).toHaveLength(3);
  const second = await app.api().get(`/articles/${articleId}/history?limit=3&cursor=${first.body.nextCursor}`);
  expect([...first.body.history, ...second.body.history].map((entry: { revision: number }) => entry.revision)).toEqual([0, 1, 2, 3]);
});

test('topic and project histories are served the same way', async () => {
  const { projectId } = await writtenArticle();
  const project = await app.api().get(`/projects/${projectId}/history`);
  expect(project.body.history.map((entry: { type: string }) => entry.type)).toEqual(['ProjectCreated', 'BrandCrawlRequested']);
  const topics = await app.api().get(`/projects/${projectId}/topics`);
  const topic = await app.api().get(`/topics/${topics.body.topics[0].id}/history`);
  expect(topic.body.history.map((entry: { type: string }) => entry.type)).toEqual(['TopicCreated', 'TopicWritten']);
});

test('versions list each content version with a diff against the previous one', async () => {
  const { articleId } = await writtenArticle();
  const versions = await app.api().get(`/articles/${articleId}/versions`);
  expect(versions.body.versions).toEqual([expect.objectContaining({ version: 1, kind: 'draft', diff: expect.objectContaining({ changed: true }) })]);
  const one = await app.api().get(`/articles/${articleId}/versions/1`);
  expect(one.body.version.content).toContain('First draft.');
  expect(one.body.version.unifiedDiff).toContain('+First draft.');
  expect((await app.api().get(`/articles/${articleId}/versions/2`)).status).toBe(404);
});

test('another account gets 404 for every history of the first', async () => {
  const { articleId, projectId } = await writtenArticle();
  const other = app.api(await app.newKey('auditor-elsewhere'));
  for (const path of [`/articles/${articleId}/history`, `/projects/${projectId}/history`, `/articles/${articleId}/versions`, `/articles/${articleId}/versions/1`]) {
    const response = await other.get(path);
    expect(response.status, path).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  }
});

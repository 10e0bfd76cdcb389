import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { topicStream } from '../../../src/domain/topics/decide.ts';
import { ENSURE_ARTICLE_QUEUED } from '../../../src/features/topics/ensureArticleQueued.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';

let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream();
  await stopPipeline(app);
});
afterAll(async () => {
  await app.close();
});

test('a topic marked written whose article append never happened gets its article queued', async () => {
  const {
    body: { project },
  } = await app.api().post('/projects', { name: 'Acme', websiteUrl: 'https://acme.example' });
  const {
    body: { topic },
  } = await app
    .api()
    .post(`/projects/${project.id}/topics`, { title: 'Lost article', keyword: 'lost', brief: 'b' });
  const articleId = app.platform.ids.next('art');
  // What POST /topics/:id/write does before it dies: only the topic's append.
  const marked = await app.platform.commands.execute(
    topicStream,
    topic.id,
    { type: 'MarkTopicWritten', articleId, trigger: 'api', at: app.platform.clock.now() },
    {
      accountId: accountIdForName('test'),
      actor: { kind: 'system', worker: 'test' },
      correlationId: 'c',
      requestId: 'r',
      commandId: 'crashed-write',
    },
  );
  const repairer = app.background.consumers.find(
    (consumer) => consumer.name === ENSURE_ARTICLE_QUEUED,
  )!;
  expect(await repairer.waitFor(marked.position!, 5000)).toBe(true);
  const article = await app.api().get(`/articles/${articleId}`);
  expect(article.status).toBe(200);
  expect(article.body.article).toMatchObject({
    id: articleId,
    topicId: topic.id,
    projectId: project.id,
    status: 'queued',
    title: 'Lost article',
    keyword: 'lost',
  });
  const queued = (await app.platform.eventStore.readStream(`article-${articleId}`)).filter(
    (event) => event.type === 'ArticleQueued',
  );
  expect(queued).toHaveLength(1);
  expect(queued[0].metadata).toMatchObject({
    actor: { kind: 'system', worker: ENSURE_ARTICLE_QUEUED },
    causationId: marked.events[0].id,
  });
});

test('when the API queued the article itself, the consumer adds nothing', async () => {
  const {
    body: { project },
  } = await app.api().post('/projects', { name: 'Beta', websiteUrl: 'https://beta.example' });
  const {
    body: { topic },
  } = await app.api().post(`/projects/${project.id}/topics`, { title: 'Normal write' });
  const {
    body: { article },
  } = await app.api().post(`/topics/${topic.id}/write`);
  const head = await app.platform.eventStore.headPosition();
  const repairer = app.background.consumers.find(
    (consumer) => consumer.name === ENSURE_ARTICLE_QUEUED,
  )!;
  expect(await repairer.waitFor(head, 5000)).toBe(true);
  const events = await app.platform.eventStore.readStream(`article-${article.id}`);
  expect(events.map((event) => event.type)).toEqual(['ArticleQueued']);
});

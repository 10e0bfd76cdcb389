import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../support/eventually.ts';
import type { FakeOpenAi } from '../support/fakeOpenAi.ts';
import { answerEveryCall } from '../support/modelAnswers.ts';
import type { ApiClient, TestInkstream } from '../support/inkstream.ts';
import type { TestSite } from '../support/testSite.ts';
import { startModelWorld, type ModelWorld } from '../support/modelWorld.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../bin/inkstream.js');

let fake: FakeOpenAi;
let site: TestSite;
let app: TestInkstream;
let api: ApiClient;

let world: ModelWorld | undefined;
beforeAll(async () => {
  world = await startModelWorld({ respond: answerEveryCall });
  ({ fake, site, app } = world);
  api = app.api(await app.newKey('bakery'));
});
afterAll(() => world?.close());

/** The admin CLI against the running server's store, as an operator runs it. */
const cli = (...args: string[]) =>
  run(process.execPath, [CLI, ...args], {
    env: {
      ...process.env,
      DATA_DIR: app.dataDir,
      LOG_LEVEL: 'silent',
      INKSTREAM_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    },
  }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

test('accounts budget refuses anything but exactly one of a non-negative --usd, a whole --tokens or --none, and changes nothing', async () => {
  const head = await app.platform.eventStore.headPosition();
  for (const args of [['--usd', '-3'], ['--tokens', '1.5'], ['--usd', '1', '--tokens', '2'], []]) {
    const result = await cli('accounts', 'budget', '--account', 'bakery', ...args);
    expect({ args, code: result.code }).toEqual({ args, code: 1 });
    expect(result.stderr).toMatch(/--usd|--tokens|--none/);
  }
  expect((await cli('accounts', 'budget', '--account', 'nobody', '--usd', '1')).stderr).toContain(
    'No account named nobody',
  );
  expect(await app.platform.eventStore.headPosition()).toBe(head);
}, 120_000);

test('an account budget set from the CLI while the server runs holds the next article, and raising it resumes the article', async () => {
  const projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
    .project.id as string;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status !== 'pending',
    { what: 'the crawl' },
  );
  expect(
    (await cli('accounts', 'budget', '--account', 'bakery', '--tokens', '0')).stdout,
  ).toContain('a monthly budget of 0 tokens');
  await eventually(
    () => api.get('/usage'),
    (r) => r.body.usage.budget?.tokens === 0,
    { what: 'the budget read back' },
  );

  const topic = (
    await api.post(`/projects/${projectId}/topics`, {
      title: 'Holiday pre-orders',
      keyword: 'pre-orders',
    })
  ).body.topic;
  const articleId = (await api.post(`/topics/${topic.id}/write`)).body.article.id as string;
  const held = await eventually(
    () => api.get(`/articles/${articleId}`).then((r) => r.body.article),
    (a) => a.waitingFor !== null,
    { what: 'the article waiting' },
  );
  expect(held).toMatchObject({
    status: 'queued',
    waitingFor: { reason: 'budget', scope: 'account', budget: { tokens: 0 } },
  });

  expect((await cli('accounts', 'budget', '--account', 'bakery', '--none')).stdout).toContain(
    'no monthly budget',
  );
  const drafted = await eventually(
    () => api.get(`/articles/${articleId}`).then((r) => r.body.article),
    (a) => a.status === 'draft' || a.status === 'failed',
    { what: 'the draft' },
  );
  expect(drafted).toMatchObject({ status: 'draft', waitingFor: null });
}, 120_000);

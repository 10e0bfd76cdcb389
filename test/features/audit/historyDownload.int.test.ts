import { expect, test } from 'vitest';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { useAcmeProject } from '../../support/acmeProject.ts';

const acme = useAcmeProject({ pipeline: 'stopped' });

async function draftArticle(): Promise<string> {
  const {
    body: { topic },
  } = await acme.app.api().post(`/projects/${acme.projectId}/topics`, { title: 'Download me' });
  const {
    body: { article },
  } = await acme.app.api().post(`/topics/${topic.id}/write`);
  await advanceArticle(acme.app.platform, accountIdForName('test'), article.id, 'draft');
  return article.id;
}

const download = (id: string, key = acme.app.key) =>
  fetch(`${acme.app.url}/api/v1/articles/${id}/history.jsonl`, {
    headers: { authorization: `Bearer ${key}` },
  });

test("the download is refused without a key, for another account's article and for a malformed id", async () => {
  const id = await draftArticle();
  expect((await fetch(`${acme.app.url}/api/v1/articles/${id}/history.jsonl`)).status).toBe(401);
  const stranger = await download(id, await acme.app.newKey('stranger'));
  expect(stranger.status).toBe(404);
  expect(((await stranger.json()) as { error: { code: string } }).error.code).toBe('not_found');
  expect((await download('art_../../etc')).status).toBe(404);
});

test("the download is the article's whole history, one entry per line as GET /history gives it, as a named attachment", async () => {
  const id = await draftArticle();
  const response = await download(id);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/jsonl');
  expect(response.headers.get('content-disposition')).toBe(
    `attachment; filename="${id}-history.jsonl"`,
  );
  const text = await response.text();
  expect(text.endsWith('\n')).toBe(true);
  const lines = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  const { body } = await acme.app.api().get(`/articles/${id}/history?limit=1000`);
  expect(lines).toEqual(body.history);
  expect(lines.map((entry) => entry.type)).toEqual([
    'ArticleQueued',
    'ArticleResearchStarted',
    'ArticleResearched',
    'ArticleDrafted',
  ]);
  expect(lines[1].actor).toEqual({ kind: 'system', worker: 'test-pipeline' });
});

import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { articleIn, startWorld, type World } from './world.ts';

let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterAll(async () => {
  await w.close();
});

const CALLOUT = '<Callout type="tip">Freeze spare dough the same evening.</Callout>';

test("a hand edit on the pull request branch, with the maintainer's own MDX component, survives the next revision", async () => {
  const { articleId } = await w.pullRequestOpen();
  const { branch, path } = (await w.api.get(`/articles/${articleId}`)).body.article;
  const committed = w.github.fileAt('acme', 'site', branch, path)!.toString('utf8');
  const [frontmatter, body] = [
    committed.slice(0, committed.indexOf('\n---\n') + 5),
    committed.slice(committed.indexOf('\n---\n') + 5),
  ];
  const edited = `${frontmatter}\nWe test every recipe twice before it reaches the counter.\n\n${CALLOUT}\n${body}`;
  w.github.pushCommit('acme', 'site', branch, {
    message: 'Add our own note',
    files: { [path]: edited },
    author: 'octo',
  });

  const before = (await w.api.get(`/articles/${articleId}`)).body.article;
  expect(
    (
      await w.api.post(`/articles/${articleId}/revise`, {
        instruction: 'Replace "test every recipe twice" with "test every recipe three times"',
      })
    ).status,
  ).toBe(202);
  const file = await eventually(
    async () => w.github.fileAt('acme', 'site', branch, path)!.toString('utf8'),
    (text) => text !== edited,
    { what: 'the revision on the branch' },
  );

  expect(file).toContain('We test every recipe three times before it reaches the counter.');
  expect(file).toContain(CALLOUT);
  expect(file).toContain(body.trim().split('\n')[0]); // the rest of the article is still there
  const after = await articleIn(w.api, articleId, ['pr_open']);
  expect(after.version).toBe(before.version + 1);
  expect(after.content).toBe(file);
  expect(after.lastRevisionSummary).toMatch(/edits made there; they are kept/);
});

test("a revision of a branch nobody edited starts from Inkstream's own version and says nothing about hand edits", async () => {
  const { articleId } = await w.pullRequestOpen();
  const { branch, path } = (await w.api.get(`/articles/${articleId}`)).body.article;
  expect(
    (await w.api.post(`/articles/${articleId}/revise`, { instruction: 'Make it more formal' }))
      .status,
  ).toBe(202);
  const after = await eventually(
    async () => (await w.api.get(`/articles/${articleId}`)).body.article,
    (a) => a.pendingRevisions === 0 && a.version === 2,
    { what: 'the revision' },
  );
  expect(after.lastRevisionSummary).not.toMatch(/edits made there/);
  await eventually(
    async () => w.github.fileAt('acme', 'site', branch, path)!.toString('utf8'),
    (text) => text.includes(after.body.trim()),
    { what: 'the commit' },
  );
});

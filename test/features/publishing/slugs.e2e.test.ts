import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseMdx } from '../../../src/mdx/mdx.ts';
import { articleIn, startWorld, type World } from './world.ts';

let w: World;
let projectId: string;

beforeAll(async () => {
  w = await startWorld({ plan: 'pro' });
  projectId = await w.project();
});
afterAll(() => w.close());

const fileOn = (ref: string, path: string) =>
  w.github.fileAt('acme', 'site', ref, path)?.toString('utf8') ?? null;

test('a second article with a slug whose pull request is still open gets <slug>-2: its own branch, file and PR', async () => {
  expect((await w.connect(projectId)).status).toBe(200);
  const first = await w.draft(projectId, 'Sourdough for beginners');
  await w.api.post(`/articles/${first}/approve`);
  const one = await articleIn(w.api, first, ['pr_open']);
  const second = await w.draft(projectId, 'Sourdough for beginners');
  await w.api.post(`/articles/${second}/approve`);
  const two = await articleIn(w.api, second, ['pr_open']);

  expect(one).toMatchObject({
    branch: 'inkstream/sourdough-for-beginners',
    path: 'content/blog/sourdough-for-beginners.mdx',
  });
  expect(two).toMatchObject({
    branch: 'inkstream/sourdough-for-beginners-2',
    path: 'content/blog/sourdough-for-beginners-2.mdx',
    prNumber: one.prNumber + 1,
  });
  const committed = fileOn(
    'inkstream/sourdough-for-beginners-2',
    'content/blog/sourdough-for-beginners-2.mdx',
  )!;
  expect(parseMdx(committed).frontmatter).toMatchObject({
    slug: 'sourdough-for-beginners-2',
    cover: '/images/covers/sourdough-for-beginners-2.png',
  });
  expect(
    fileOn(
      'inkstream/sourdough-for-beginners-2',
      'public/images/covers/sourdough-for-beginners-2.png',
    ),
  ).not.toBeNull();
  // The first article's pull request was not touched.
  expect(
    fileOn('inkstream/sourdough-for-beginners', 'content/blog/sourdough-for-beginners.mdx'),
  ).toBe(one.content);
});

test('direct mode: one commit on the base branch, merged at once; an existing file of that name is never overwritten', async () => {
  const taken = "---\ntitle: Someone else's post\n---\n\nKeep me.\n";
  w.github.pushCommit('acme', 'site', 'main', {
    message: 'A post by hand',
    files: { 'content/blog/croissant-lamination-explained.mdx': taken },
  });
  expect((await w.connect(projectId, { publishMode: 'direct' })).body.github.publishMode).toBe(
    'direct',
  );
  const articleId = await w.draft(projectId, 'Croissant lamination explained');
  const before = w.github.branchHistory('acme', 'site', 'main');
  const pullsBefore = w.github.calls('pulls/create').length;

  const approved = await w.api.post(`/articles/${articleId}/approve`);
  expect(approved.body.article.publishMode).toBe('direct');
  const merged = await articleIn(w.api, articleId, ['merged']);

  expect(merged).toMatchObject({
    path: 'content/blog/croissant-lamination-explained-2.mdx',
    prUrl: null,
  });
  expect(merged.publishedAt).not.toBeNull();
  const after = w.github.branchHistory('acme', 'site', 'main');
  expect(after).toHaveLength(before.length + 1);
  expect(after[0].message).toContain('Add article brief "Croissant lamination explained"');
  expect(fileOn('main', 'content/blog/croissant-lamination-explained.mdx')).toBe(taken);
  expect(parseMdx(fileOn('main', merged.path)!).frontmatter.slug).toBe(
    'croissant-lamination-explained-2',
  );
  expect(w.github.calls('pulls/create')).toHaveLength(pullsBefore);
});

import { afterEach, beforeEach, expect, test } from 'vitest';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.github.close();
});

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10, 0x80]);
const article = {
  branch: 'inkstream/art_1',
  message: 'Add "Choosing a CRM"',
  files: [
    {
      path: 'content/blog/choosing-a-crm.mdx',
      content: '---\ntitle: Choosing a CRM\n---\n\nStart here.\n',
    },
    { path: 'public/covers/choosing-a-crm.png', content: PNG },
  ],
};

async function branchFromMain(name = article.branch) {
  const main = (await h.site.getBranchHead('main'))!;
  await h.site.createBranch(name, main);
  return main;
}

test('an article is published as one commit with both files, then a pull request with its body', async () => {
  const main = await branchFromMain();
  const commit = await h.site.commitFiles(article);
  const pull = await h.site.createPullRequest({
    head: article.branch,
    base: 'main',
    title: 'Choosing a CRM',
    body: 'Written by Inkstream.\n\nart_1',
  });

  expect(commit.created).toBe(true);
  const history = h.github.branchHistory('acme', 'site', article.branch);
  expect(history.map((c) => c.message)).toEqual([article.message, 'Initial commit']);
  expect(history[1].sha).toBe(main);
  expect(
    h.github.fileAt('acme', 'site', article.branch, 'content/blog/choosing-a-crm.mdx')?.toString(),
  ).toContain('Start here.');
  expect(
    h.github.fileAt('acme', 'site', article.branch, 'public/covers/choosing-a-crm.png'),
  ).toEqual(PNG);
  expect(h.github.fileAt('acme', 'site', article.branch, 'README.md')?.toString()).toBe(
    '# Acme site\n',
  );

  expect(pull).toMatchObject({
    number: 1,
    state: 'open',
    merged: false,
    headRef: article.branch,
    headSha: commit.sha,
    baseRef: 'main',
    created: true,
  });
  expect(pull.htmlUrl).toBe('https://github.com/acme/site/pull/1');
  expect(h.github.repository('acme', 'site').pulls.get(1)?.body).toBe(
    'Written by Inkstream.\n\nart_1',
  );
});

test('creating the branch again returns it as it is', async () => {
  const main = await branchFromMain();
  const { sha } = await h.site.commitFiles(article);
  await expect(h.site.createBranch(article.branch, main)).resolves.toEqual({ sha, created: false });
});

test('a crash between creating the commit and moving the branch does not leave two commits', async () => {
  await branchFromMain();
  h.github.failNext('git/update-ref', { status: 502, times: 4 }); // every attempt dies before the ref moves
  await expect(h.site.commitFiles(article)).rejects.toMatchObject({ code: 'unavailable' });
  expect(h.github.branchHistory('acme', 'site', article.branch)).toHaveLength(1);

  const retried = await h.site.commitFiles(article);
  expect(retried.created).toBe(true);
  expect(h.github.branchHistory('acme', 'site', article.branch).map((c) => c.message)).toEqual([
    article.message,
    'Initial commit',
  ]);
});

test('a retry after the branch already moved (response lost) commits nothing more', async () => {
  await branchFromMain();
  h.github.failNext('git/update-ref', { status: 502, times: 4, afterApplying: true });
  await expect(h.site.commitFiles(article)).rejects.toMatchObject({ code: 'unavailable' });
  const landed = h.github.branchHistory('acme', 'site', article.branch)[0];

  await expect(h.site.commitFiles(article)).resolves.toEqual({ sha: landed.sha, created: false });
  expect(h.github.branchHistory('acme', 'site', article.branch)).toHaveLength(2);
  expect(h.github.calls('git/create-commit')).toHaveLength(1);
});

test('a commit expecting a head that someone else moved is refused as a conflict', async () => {
  const main = await branchFromMain();
  h.github.pushCommit('acme', 'site', article.branch, {
    message: 'Human edit',
    files: { 'content/blog/choosing-a-crm.mdx': 'edited by hand' },
    author: 'alice',
  });
  const error = await h.site.commitFiles({ ...article, expectedHeadSha: main }).catch((e) => e);
  expect(error).toMatchObject({ code: 'conflict', retryable: false });
  expect(h.github.branchHistory('acme', 'site', article.branch)[0].message).toBe('Human edit');
});

test('opening the same pull request twice gives one pull request', async () => {
  await branchFromMain();
  await h.site.commitFiles(article);
  const input = { head: article.branch, base: 'main', title: 'Choosing a CRM', body: 'b' };
  const first = await h.site.createPullRequest(input);
  const second = await h.site.createPullRequest(input);
  expect(second).toEqual({ ...first, created: false });
  expect(h.github.repository('acme', 'site').pulls.size).toBe(1);
});

test('a pull request opened by a lost-response attempt is found after GitHub says it already exists', async () => {
  await branchFromMain();
  await h.site.commitFiles(article);
  h.github.failNext('pulls/create', { status: 502, times: 1, afterApplying: true });
  const pull = await h.site.createPullRequest({
    head: article.branch,
    base: 'main',
    title: 'Choosing a CRM',
    body: 'b',
  });
  expect(pull).toMatchObject({ number: 1, created: false });
  expect(h.github.calls('pulls/create').map((c) => c.status)).toEqual([502, 422]);
});

test('a merged pull request reads as merged; a closed one as closed and unmerged', async () => {
  for (const name of ['inkstream/art_1', 'inkstream/art_2']) {
    await branchFromMain(name);
    await h.site.commitFiles({
      ...article,
      branch: name,
      files: [{ path: `content/blog/${name.slice(-5)}.mdx`, content: name }],
    });
    await h.site.createPullRequest({ head: name, base: 'main', title: name, body: '' });
  }
  h.github.mergePullRequest('acme', 'site', 1, 'alice');
  h.github.closePullRequest('acme', 'site', 2);

  const merged = await h.site.getPullRequest(1);
  expect(merged).toMatchObject({ state: 'closed', merged: true, headRef: 'inkstream/art_1' });
  expect(merged.mergedAt).toBe('2026-03-01T09:00:00Z');
  await expect(h.site.getPullRequest(2)).resolves.toMatchObject({
    state: 'closed',
    merged: false,
    mergedAt: null,
  });
  expect(h.github.fileAt('acme', 'site', 'main', 'content/blog/art_1.mdx')?.toString()).toBe(
    'inkstream/art_1',
  );
});

test('open pull requests are listed by head prefix, across pages', async () => {
  const main = (await h.site.getBranchHead('main'))!;
  for (let i = 1; i <= 103; i++) {
    const name = i % 2 ? `inkstream/art_${i}` : `feature/${i}`;
    await h.site.createBranch(name, main);
    h.github.pushCommit('acme', 'site', name, {
      message: `change ${i}`,
      files: { [`f${i}.txt`]: String(i) },
    });
    await h.site.createPullRequest({ head: name, base: 'main', title: name, body: '' });
  }
  h.github.closePullRequest('acme', 'site', 1);

  const listed = await h.site.listOpenPullRequests('inkstream/');
  expect(listed).toHaveLength(51);
  expect(listed.every((p) => p.headRef.startsWith('inkstream/') && p.state === 'open')).toBe(true);
  expect(
    h.github
      .calls('pulls/list')
      .filter((c) => c.query.page)
      .map((c) => c.query.page),
  ).toEqual(['1', '2']);
  await expect(h.site.findOpenPullRequest('inkstream/art_3')).resolves.toMatchObject({ number: 3 });
  await expect(h.site.findOpenPullRequest('inkstream/art_1')).resolves.toBeNull();
});

test('files are read at a ref: text, bytes, missing, and above the 1 MB contents limit', async () => {
  const big = Buffer.alloc(1_200_000, 7);
  h.github.pushCommit('acme', 'site', 'main', {
    message: 'big cover',
    files: { 'public/big.png': big },
  });

  const hello = await h.site.getFile('content/blog/hello.mdx', 'main');
  expect(hello?.content.toString()).toContain('title: Hello');
  expect(hello?.sha).toMatch(/^[0-9a-f]{40}$/);
  await expect(h.site.getFile('content/blog/nope.mdx', 'main')).resolves.toBeNull();
  await expect(h.site.getFile('README.md', 'no-such-branch')).resolves.toBeNull();
  expect((await h.site.getFile('public/big.png', 'main'))?.content.equals(big)).toBe(true);
  expect(h.github.calls('git/get-blob')).toHaveLength(1);
});

test('a missing branch has no head, and committing to it says so', async () => {
  await expect(h.site.getBranchHead('inkstream/none')).resolves.toBeNull();
  await expect(h.site.commitFiles({ ...article, branch: 'inkstream/none' })).rejects.toMatchObject({
    code: 'branch_missing',
  });
});

test('a comment is posted on the pull request', async () => {
  await branchFromMain();
  await h.site.commitFiles(article);
  await h.site.createPullRequest({ head: article.branch, base: 'main', title: 't', body: 'b' });
  const comment = await h.site.createIssueComment(1, 'Revision applied: shorter intro.');
  expect(comment.htmlUrl).toBe(`https://github.com/acme/site/pull/1#issuecomment-${comment.id}`);
  expect(h.github.repository('acme', 'site').comments).toMatchObject([
    { issueNumber: 1, body: 'Revision applied: shorter intro.', author: 'inkbot' },
  ]);
});

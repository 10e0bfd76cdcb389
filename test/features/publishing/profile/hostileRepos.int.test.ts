import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { MAX_SAMPLED_POSTS } from '../../../../src/features/publishing/profile/learn.ts';
import { learnContentProfile } from '../../../../src/features/publishing/profile/learnContentProfile.ts';
import { createOctokitGitHub } from '../../../../src/integrations/github/octokit.ts';
import { FakeGitHub } from '../../../support/fakeGitHub.ts';
import type { PushedFile } from '../../../support/fakeGitHub/userActions.ts';
import { fixtureRepos } from '../../../fixtures/repos/index.ts';

/**
 * Hostile repositories (issue 27 item 4), learned over HTTP from the fake GitHub through the real
 * Octokit adapter: code that would run on import, JavaScript frontmatter and YAML tags, a 50 MB
 * file, 20,000 posts, symbolic links and submodules, broken frontmatter, directories outside the
 * repository, case-only collisions. Each is bounded in calls and time, says why, and runs nothing.
 */

let github: FakeGitHub;
let scratch: string;
let counter = 0;
beforeAll(async () => {
  github = await FakeGitHub.start();
  scratch = mkdtempSync(join(tmpdir(), 'inkstream-hostile-'));
});
afterAll(async () => {
  await github.close();
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(() => {
  expect(github.violations).toEqual([]);
  delete (globalThis as Record<string, unknown>).__inkstreamRan;
});

async function learnRepo(
  files: Record<string, PushedFile>,
  options: { treeListLimit?: number } = {},
) {
  const name = `site${++counter}`;
  github.addRepository({ owner: 'acme', name, files, ...options });
  const token = `token-${name}`;
  github.addToken(token, { login: 'inkbot', repositories: { [`acme/${name}`]: 'read' } });
  const port = createOctokitGitHub({
    credentials: { type: 'token', token },
    baseUrl: github.baseUrl,
  });
  const before = github.requests.length;
  const startedAt = performance.now();
  const result = await learnContentProfile(port.repository({ owner: 'acme', repo: name }), 'main');
  const requests = github.requests.slice(before);
  return { ...result, requests, ms: performance.now() - startedAt, name };
}

const blobShaOf = (name: string, path: string) =>
  github
    .repository('acme', name)
    .git.trees.get(
      github
        .repository('acme', name)
        .git.commits.get(github.repository('acme', name).branches.get('main')!)!.treeSha,
    )!
    .get(path)!.sha;

test('a content config that would run code on import is parsed, never imported', async () => {
  const marker = join(scratch, 'config-ran');
  const { learned, notes } = await learnRepo({
    'package.json': '{"dependencies":{"astro":"5.16.0"}}',
    'src/content.config.ts': `import { writeFileSync } from 'node:fs';
import { defineCollection, z } from 'astro:content';
import { glob } from 'astro/loaders';
writeFileSync(${JSON.stringify(marker)}, 'ran');
(globalThis as any).__inkstreamRan = true;
process.exit(3);
const blog = defineCollection({
  loader: glob({ base: './src/content/blog', pattern: '**/*.md' }),
  schema: z.object({ title: z.string(), pubDate: z.coerce.date() }),
});
export const collections = { blog };
throw new Error('imported');
`,
    'src/content/blog/a.md': '---\ntitle: A\npubDate: 2024-01-01\n---\n',
  }).then((r) => ({ ...r, notes: r.learned?.notes }));
  expect(existsSync(marker)).toBe(false);
  expect((globalThis as Record<string, unknown>).__inkstreamRan).toBeUndefined();
  expect(learned?.collection.directory).toBe('src/content/blog');
  expect(learned?.fields.map((f) => [f.name, f.source.line])).toEqual([
    ['title', 9],
    ['pubDate', 9],
  ]);
  expect(notes).toEqual([]);
});

test('JavaScript frontmatter (---js) and YAML tags like !!js/function are refused, the post skipped with a note', async () => {
  const { learned } = await learnRepo({
    'posts/good-one.md': '---\ntitle: Good\ndate: 2024-01-01\n---\n',
    'posts/good-two.md': '---\ntitle: Also good\ndate: 2024-01-02\n---\n',
    'posts/js.md': "---js\n{ title: (globalThis.__inkstreamRan = 'js', 'x') }\n---\n",
    'posts/tag.md':
      '---\ntitle: !!js/function "function () { globalThis.__inkstreamRan = \'tag\' }"\ndate: 2024-01-03\n---\n',
  });
  expect((globalThis as Record<string, unknown>).__inkstreamRan).toBeUndefined();
  expect(learned!.collection.directory).toBe('posts');
  expect(learned!.fields.map((f) => f.name)).toEqual(['title', 'date']);
  expect(learned!.notes).toEqual([
    'posts/js.md was skipped: its frontmatter is declared as `---js`, which would run as code; it was not read.',
    expect.stringMatching(
      /^posts\/tag\.md was skipped: its YAML frontmatter could not be read as plain data \(Unresolved tag/,
    ),
  ]);
});

test('a 50 MB file is never read: the tree says its size', async () => {
  const huge = Buffer.alloc(50 * 1024 * 1024, 'a');
  const { learned, requests, name } = await learnRepo({
    'hugo.toml': "baseURL = 'https://example.org/'\n",
    'content/posts/huge.md': Buffer.concat([Buffer.from('---\ntitle: Huge\n---\n'), huge]),
    'content/posts/small.md': '---\ntitle: Small\ndate: 2024-01-01\n---\n',
  });
  const hugeSha = blobShaOf(name, 'content/posts/huge.md');
  expect(requests.filter((r) => r.path.endsWith(hugeSha))).toEqual([]);
  expect(learned!.notes).toContain('content/posts/huge.md is larger than 512 KB; it was not read.');
  expect(learned!.fields.map((f) => f.name)).toEqual(['title', 'date']);
});

test('20,000 posts: one tree read and a bounded sample, in bounded time', async () => {
  const files: Record<string, string> = { '_config.yml': 'title: Big\npermalink: pretty\n' };
  for (let i = 0; i < 20_000; i++) {
    const day = `2020-01-${String((i % 28) + 1).padStart(2, '0')}`;
    files[`_posts/${day}-post-${i}.md`] =
      `---\ntitle: Post ${i}\ndate: ${day}\ntags: [t${i % 7}]\n---\n\nBody ${i}.\n`;
  }
  const { learned, requests, ms } = await learnRepo(files);
  const calls = (id: string) => requests.filter((r) => r.operationId === id).length;
  expect(calls('repos/get-branch')).toBe(1);
  expect(calls('git/get-tree')).toBe(1);
  expect(calls('git/get-blob')).toBeLessThanOrEqual(MAX_SAMPLED_POSTS + 1);
  expect(requests).toHaveLength(2 + calls('git/get-blob'));
  expect(learned!.fileName).toBe('{date}-{slug}.md');
  expect(learned!.permalink).toBe('/{year}/{month}/{day}/{slug}/');
  expect(ms).toBeLessThan(15_000);
}, 60_000);

test('symbolic links and submodules are listed, never followed or read', async () => {
  const { learned, requests, name } = await learnRepo({
    'hugo.yaml': 'baseURL: https://example.org/\n',
    'config.toml': { symlink: '../../../etc/passwd' },
    'themes/PaperMod': { submodule: 'a'.repeat(40) },
    'content/posts/real.md': '---\ntitle: Real\ndate: 2024-01-01\n---\n',
    'content/posts/linked.md': { symlink: '/etc/passwd' },
    'content/posts/vendored': { submodule: 'b'.repeat(40) },
  });
  const linkShas = ['config.toml', 'content/posts/linked.md'].map((p) => blobShaOf(name, p));
  expect(requests.filter((r) => linkShas.some((sha) => r.path.endsWith(sha)))).toEqual([]);
  expect(requests.filter((r) => r.path.includes('b'.repeat(40)))).toEqual([]);
  expect(learned!.toolchain).toBe('hugo');
  expect(learned!.fields.map((f) => f.name)).toEqual(['title', 'date']);
  expect(learned!.notes).toEqual([
    'content/posts/linked.md is a symbolic link; it was not followed.',
    'content/posts/vendored is a submodule; it was not followed.',
  ]);
});

test('posts with malformed frontmatter are skipped with a note; the rest teach the profile', async () => {
  const { learned } = await learnRepo({
    'blog/a.md': '---\ntitle: A\ndate: 2024-01-01\n---\n',
    'blog/b.md': '---\ntitle: B\ndate: 2024-01-02\n---\n',
    'blog/broken.md': '---\ntitle: [unclosed\ndate: 2024-01-03\n---\n',
    'blog/unclosed.md': '---\ntitle: never closes\n',
    'blog/duplicate.md': '---\ntitle: One\ntitle: Two\n---\n',
  });
  expect(learned!.fields.map((f) => [f.name, f.required])).toEqual([
    ['title', true],
    ['date', true],
  ]);
  expect(learned!.notes.map((n) => n.split(':')[0])).toEqual([
    'blog/broken.md was skipped',
    'blog/duplicate.md was skipped',
    'blog/unclosed.md was skipped',
  ]);
});

test('a config pointing the content directory at .. or an absolute path is refused with a note', async () => {
  const astro = await learnRepo({
    'src/content.config.ts': `import { defineCollection, z } from 'astro:content';
import { glob } from 'astro/loaders';
const secrets = defineCollection({ loader: glob({ base: '../../etc', pattern: '**/*.md' }), schema: z.object({ title: z.string() }) });
const rooted = defineCollection({ loader: glob({ base: '/var/lib', pattern: '**/*.md' }), schema: z.object({ title: z.string() }) });
export const collections = { secrets, rooted };
`,
  });
  expect(astro.learned).toBeNull();
  expect(astro.failureReason).toBe(
    'This looks like an Astro site, but no folder of posts was found; set the content directory.',
  );
  const docusaurus = await learnRepo({
    'docusaurus.config.js':
      "export default { presets: [['classic', { blog: { path: '/etc/blog' } }]] };\n",
    'blog/2024-01-01-a.md': '---\ntitle: A\n---\n',
  });
  expect(docusaurus.learned!.collection.directory).toBe('blog');
  expect(docusaurus.learned!.notes).toContain(
    'docusaurus.config.js points the blog at "/etc/blog", outside the repository; it was refused.',
  );
  const eleventy = await learnRepo({
    '.eleventy.js': 'module.exports = () => ({ dir: { input: "../.." } });\n',
    'posts/a.md': '---\ntitle: A\n---\n',
  });
  expect(eleventy.learned!.collection.directory).toBe('posts');
  expect(eleventy.learned!.notes).toContain(
    '.eleventy.js points its input directory at "../..", outside the repository; it was refused.',
  );
});

test('paths that differ only in case are named in a note', async () => {
  const { learned } = await learnRepo({
    'posts/Hello.md': '---\ntitle: Hello\n---\n',
    'posts/hello.md': '---\ntitle: hello\n---\n',
  });
  expect(learned!.notes).toEqual([
    'The repository has paths that differ only in case (posts/Hello.md and posts/hello.md); a new post is never named so that it clashes with one.',
  ]);
});

test("GitHub's truncated tree is honoured: learned from the part listed, and said", async () => {
  const { learned } = await learnRepo(fixtureRepos.plainFolder.files, { treeListLimit: 3 });
  expect(learned!.notes[0]).toMatch(/GitHub listed only part of the repository/);
});

test('a repository with no Markdown at all fails with a reason a person can act on', async () => {
  const { learned, failureReason, learnedFrom, name } = await learnRepo({
    'index.html': '<h1>hi</h1>',
  });
  expect(learned).toBeNull();
  expect(failureReason).toBe(
    'No folder of Markdown posts was found in the repository; set the content directory.',
  );
  expect(learnedFrom.commit).toBe(github.repository('acme', name).branches.get('main'));
});

test('the port: a missing branch has no tip, a blob above the cap is not kept, the tree lists links and submodules by type', async () => {
  github.addRepository({
    owner: 'acme',
    name: 'port',
    files: {
      'big.md': 'x'.repeat(2048),
      'link.md': { symlink: 'big.md' },
      'vendor/lib': { submodule: 'c'.repeat(40) },
    },
  });
  github.addToken('t-port', { login: 'inkbot', repositories: { 'acme/port': 'read' } });
  const repo = createOctokitGitHub({
    credentials: { type: 'token', token: 't-port' },
    baseUrl: github.baseUrl,
  }).repository({ owner: 'acme', repo: 'port' });
  expect(await repo.getBranchTip('nope')).toBeNull();
  const tip = (await repo.getBranchTip('main'))!;
  const tree = await repo.readTree(tip.tree);
  expect(tree.truncated).toBe(false);
  expect(tree.items.map((i) => [i.path, i.type, i.mode, i.size])).toEqual([
    ['big.md', 'blob', '100644', 2048],
    ['link.md', 'symlink', '120000', 6],
    ['vendor', 'tree', '040000', null],
    ['vendor/lib', 'commit', '160000', null],
  ]);
  const big = tree.items[0].sha;
  expect(await repo.readBlob(big, 1024)).toBeNull();
  expect((await repo.readBlob(big, 4096))?.length).toBe(2048);
});

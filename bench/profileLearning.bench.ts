/**
 * Learning a content profile (issue 27): GitHub API calls and time for repositories of 50, 2,000
 * and 20,000 posts, against the fake GitHub over HTTP through the real Octokit adapter, printed
 * beside the same run's single recursive tree read. The calls must grow with the sample size
 * (bounded), not with the number of posts; the time grows only with the tree listing.
 * Run: npx node bench/profileLearning.bench.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { learnContentProfile } from '../src/features/publishing/profile/learnContentProfile.ts';
import { createOctokitGitHub } from '../src/integrations/github/octokit.ts';
import { astroBlog } from '../test/fixtures/repos/astroBlog.ts';
import { FakeGitHub } from '../test/support/fakeGitHub.ts';

const SIZES = [50, 2_000, 20_000];
const RUNS = 5;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const github = await FakeGitHub.start();
const results: Record<string, unknown> = {};
for (const posts of SIZES) {
  const name = `blog-${posts}`;
  const files: Record<string, string> = { ...astroBlog.files };
  for (let i = 0; i < posts; i++)
    files[`src/content/blog/post-${String(i).padStart(5, '0')}.md`] =
      `---\ntitle: 'Post ${i}'\ndescription: 'About ${i}'\npubDate: '2024-01-${String((i % 28) + 1).padStart(2, '0')}'\nheroImage: '../../assets/blog-placeholder-1.jpg'\n---\n\nBody of post ${i}.\n`;
  github.addRepository({ owner: 'acme', name, files });
  github.addToken(`t-${name}`, { login: 'inkbot', repositories: { [`acme/${name}`]: 'read' } });
  const port = createOctokitGitHub({
    credentials: { type: 'token', token: `t-${name}` },
    baseUrl: github.baseUrl,
  });
  const repo = port.repository({ owner: 'acme', repo: name });
  const tip = (await repo.getBranchTip('main'))!;
  // Warm the client, the parsers and the fake's response checks once: the runs measure learning.
  await repo.readTree(tip.tree);
  await learnContentProfile(repo, 'main');

  const learnMs: number[] = [];
  const treeMs: number[] = [];
  let calls: Record<string, number> = {};
  let fileName = '';
  for (let run = 0; run < RUNS; run++) {
    const before = github.requests.length;
    let started = performance.now();
    const learned = await learnContentProfile(repo, 'main');
    learnMs.push(performance.now() - started);
    fileName = learned.learned?.fileName ?? learned.failureReason ?? '';
    calls = {};
    for (const r of github.requests.slice(before))
      calls[r.operationId ?? '?'] = (calls[r.operationId ?? '?'] ?? 0) + 1;
    started = performance.now();
    await repo.readTree(tip.tree);
    treeMs.push(performance.now() - started);
  }
  const total = Object.values(calls).reduce((a, b) => a + b, 0);
  results[String(posts)] = {
    posts,
    treeEntries: github.repository('acme', name).git.trees.get(tip.tree)!.size,
    apiCalls: total,
    callsByOperation: calls,
    learnMedianMs: Math.round(median(learnMs)),
    singleTreeReadMedianMs: Math.round(median(treeMs)),
    fileName,
  };
  console.log(
    `${String(posts).padStart(6)} posts: ${total} GitHub calls (${Object.entries(calls)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}), learned in ${Math.round(median(learnMs))} ms; the same run's single tree read ${Math.round(median(treeMs))} ms`,
  );
}
await github.close();
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'profileLearning.json'),
  `${JSON.stringify(results, null, 2)}\n`,
);

import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ActiveArticle } from '../../../src/domain/articles/article.ts';
import { UnsafeMdxError } from '../../../src/mdx/mdxGate.ts';
import { articleFiles } from '../../../src/features/publishing/articleFiles.ts';
import type { GitHubSettings } from '../../../src/domain/integrations/integrations.ts';
import { startHarness, type Harness } from '../../integrations/github/harness.ts';
import { PWN } from '../../support/runMdx.ts';

/**
 * The last check before a commit, against the repository's own version of the file read through
 * the real GitHub adapter (from the fake GitHub): on the branch the commit lands on, else on the
 * base branch. A stored draft written before this check existed is the case it is there for.
 */
const CALLOUT = '<Callout type="tip">Proof overnight.</Callout>';
const mdx = (body: string) =>
  `---\ntitle: Proofing\ndescription: ''\nslug: proofing\ndate: '2026-01-01'\nkeyword: proofing\ntags: []\nauthor: Crumb\ngenerator:\n  provider: offline\n  model: m\n---\n${body}\n`;
const article = { cover: null } as unknown as ActiveArticle;
const settings = {
  contentDirectory: 'content/blog',
  coverDirectory: 'public/images',
} as GitHubSettings;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.site.commitFiles({
    branch: 'main',
    message: "A maintainer's article",
    files: [{ path: 'content/blog/proofing.mdx', content: mdx(`Intro.\n\n${CALLOUT}`) }],
  });
});
afterAll(() => h.github.close());

const files = (body: string, branch = 'inkstream/proofing') =>
  articleFiles(
    article,
    mdx(body),
    settings,
    { slug: 'proofing', path: 'content/blog/proofing.mdx' },
    { repo: h.site, branch, baseBranch: 'main' },
    undefined,
  );

test("a file with an expression the repository's version lacks is refused before anything is committed", async () => {
  await expect(files(`Intro. {${PWN}}`)).rejects.toThrow(UnsafeMdxError);
  await expect(files(`Intro. {${PWN}}`)).rejects.toThrow(
    /would add an expression .* so it was not written/,
  );
});

test("the maintainer's component in the published file (read from the base branch for a new branch) is allowed to stay", async () => {
  const committed = await files(`New intro.\n\n${CALLOUT}`);
  expect(committed.map((file) => file.path)).toEqual(['content/blog/proofing.mdx']);
  await expect(
    files(`New intro.\n\n${CALLOUT}\n\n<Callout type="tip">{${PWN}}</Callout>`),
  ).rejects.toThrow(/a JSX element/);
});

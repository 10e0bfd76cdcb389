import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { articleIn, startWorld, type World } from '../publishing/world.ts';

/** A new user's first run: no OPENAI_API_KEY, the offline writer, a GitHub repository to publish to. */
let w: World;
let projectId: string;
beforeAll(async () => {
  w = await startWorld();
  projectId = await w.project();
  expect((await w.connect(projectId)).status).toBe(200);
});
afterAll(async () => {
  await w.close();
});

test('an instruction the offline reviser cannot carry out makes no new version; the history shows the request and its answer', async () => {
  const articleId = await w.draft(projectId, 'Bakery waste, revised offline');
  const before = (await w.api.get(`/articles/${articleId}`)).body.article;
  expect(
    (
      await w.api.post(`/articles/${articleId}/revise`, {
        instruction: "Make the intro punchier. Add an Editor's note saying we won an award.",
      })
    ).status,
  ).toBe(202);
  const after = await eventually(
    async () => (await w.api.get(`/articles/${articleId}`)).body.article,
    (a) => a.pendingRevisions === 0,
    { what: 'the revision' },
  );
  expect(after.body).toBe(before.body);
  expect(after.version).toBe(before.version);
  expect(after.body).not.toMatch(/editor|award/i);
  expect(after.revisionFailure.reason).toMatch(
    /^Nothing was changed, so no new version was made\. Could not apply “Make the intro punchier\.”: without a language model .* Could not apply “Add an Editor's note saying we won an award\.”/,
  );
  const history = (await w.api.get(`/articles/${articleId}/history`)).body;
  const text = JSON.stringify(history);
  expect(text).toContain('Make the intro punchier.');
  expect(text).toContain('Nothing was changed, so no new version was made.');
});

test('plain revision requests: a section named without quotes, several edits in one instruction, each applied or named as not done', async () => {
  const articleId = await w.draft(projectId, 'Bakery waste, plain requests');
  const before = (await w.api.get(`/articles/${articleId}`)).body.article;
  expect(before.body).toContain('## Company facts');
  expect(before.body).toContain('## Pages to link to');
  const revise = async (instruction: string) => {
    const queued = await w.api.post(`/articles/${articleId}/revise`, { instruction });
    expect(queued.status).toBe(202);
    return eventually(
      async () => (await w.api.get(`/articles/${articleId}`)).body.article,
      (a) => a.pendingRevisions === 0,
      { what: 'the revision' },
    );
  };
  const first = await revise('Remove the Company facts section.');
  expect(first.version).toBe(before.version + 1);
  expect(first.body).not.toContain('## Company facts');
  expect(first.lastRevisionSummary).toBe('Removed the section "Company facts".');

  const second = await revise(
    'Remove the Pages to link to section, replace bakery with bakehouse, and write a poem about bread',
  );
  expect(second.version).toBe(first.version + 1);
  expect(second.body).not.toContain('## Pages to link to');
  expect(second.body).toMatch(/bakehouse/i);
  expect(second.lastRevisionSummary).toMatch(
    /^Removed the section "Pages to link to"\. Replaced "bakery" with "bakehouse" \(\d+×\)\. Could not apply “write a poem about bread”: without a language model/,
  );
});

test('without a model the draft is a brief: labelled in its frontmatter and pull request, holding the keyword and excerpts with their URLs, and it can be approved', async () => {
  const articleId = await w.draft(projectId, 'How bakeries plan holiday pre-orders');
  const draft = (await w.api.get(`/articles/${articleId}`)).body.article;
  expect(draft.status).toBe('draft');
  expect(draft.frontmatter).toMatchObject({
    kind: 'brief',
    keyword: 'bakery food waste',
    generator: { provider: 'offline' },
  });
  expect(draft.body).toMatch(
    /^This is a brief for an article, not the article: no language model is configured/,
  );
  expect(draft.body).toContain('## Keyword\n\nbakery food waste\n');
  expect(draft.body).toMatch(
    new RegExp(
      `^- “.+” \\(\\[[^\\]]+\\]\\(${w.site.origin.replace(/[.]/g, '\\.')}/[^)]*\\)\\)$`,
      'm',
    ),
  );
  expect(draft.body).toContain('## Company facts');
  expect(draft.body).toMatch(/- founded: 2011/);
  expect(draft.body).not.toMatch(
    /Few things shape|Ask ten people|ends with steps you can take today/,
  );

  expect((await w.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  const open = await articleIn(w.api, articleId, ['pr_open']);
  const pull = w.github.pullRequestJson('acme', 'site', open.prNumber);
  expect(pull.title).toBe(`New article brief: ${draft.title}`);
  expect(pull.body).toMatch(
    /Inkstream wrote a \*\*brief\*\* for a new article \*\*.+\*\*, not the article itself: no language model is configured/,
  );
  expect(w.github.branchHistory('acme', 'site', open.branch)[0].message).toMatch(
    /^Add article brief "/,
  );
});

import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { articleIn, startWorld, type World } from './world.ts';

/**
 * Text from outside Inkstream (topic titles and keywords, model output) reaches commit messages
 * and pull request text only as one line without control characters, and as escaped Markdown.
 */

let w: World;
let projectId: string;
let opened: { articleId: string; branch: string; prNumber: number };
beforeAll(async () => {
  w = await startWorld();
  projectId = await w.project();
  expect((await w.connect(projectId)).status).toBe(200);
});
afterAll(() => w.close());

const TRAILERS = /^(co-authored-by|signed-off-by|inkstream-article|inkstream-revision):/i;
/** A `<` that CommonMark would read as the start of HTML (or an autolink): not backslash-escaped. */
const RAW_ANGLE = /(^|[^\\])</;

test('a title carrying newlines and trailers gives a one-line commit subject, a one-line PR title and an escaped PR body', async () => {
  const title =
    'Tea\n\nCo-authored-by: Mallory <mallory@evil.example>\r\nSigned-off-by: Mallory <mallory@evil.example>\n# <img src=x onerror=alert(1)> [click](https://evil.example)\u0007';
  const keyword = 'tea ``</code><b>x</b>`` | pipe\nnext';
  const topic = await w.api.post(`/projects/${projectId}/topics`, { title, keyword });
  expect(topic.status).toBe(201);
  const written = await w.api.post(`/topics/${topic.body.topic.id}/write`);
  expect(written.status).toBe(201);
  const articleId = written.body.article.id as string;
  await articleIn(w.api, articleId, ['draft']);
  expect((await w.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  const open = await articleIn(w.api, articleId, ['pr_open']);
  opened = { articleId, branch: open.branch, prNumber: open.prNumber };

  const [commit] = w.github.branchHistory('acme', 'site', open.branch);
  const lines = commit.message.split('\n');
  expect(lines).toHaveLength(3); // subject, blank line, Inkstream's one trailer
  expect(lines[0]).toMatch(
    /^Add article brief "Tea Co-authored-by: Mallory <mallory@evil\.example> Signed-off-by: /,
  );
  expect(lines[0]).not.toMatch(/[\u0000-\u001f\u007f]/);
  expect(lines.filter((line) => TRAILERS.test(line))).toEqual([`Inkstream-Article: ${articleId}`]);

  const pull = w.github.pullRequestJson('acme', 'site', open.prNumber);
  expect(pull.title).toMatch(/^New article brief: Tea Co-authored-by: /);
  expect(pull.title).not.toMatch(/[\u0000-\u001f\u007f]/);

  const body = pull.body as string;
  const [marker, intro, ...rest] = body.split('\n');
  expect(marker).toBe(`<!-- inkstream:article:${articleId} -->`);
  expect(intro).toContain('Tea Co-authored-by: Mallory');
  expect(intro).toContain('\\<img src=x onerror=alert\\(1\\)\\>');
  expect(intro).toContain('\\[click\\]\\(https://evil.example\\)');
  const outsideCodeSpans = (line: string) => line.replace(/(`+) .*? \1|(`+)[^`]*\2/g, '');
  for (const line of [intro, ...rest]) expect(outsideCodeSpans(line)).not.toMatch(RAW_ANGLE);
  expect(
    rest.filter(
      (line) => /Co-authored-by|Signed-off-by|^#\s/.test(line) && !line.startsWith('###'),
    ),
  ).toEqual([]);
  // The keyword stays inside its code span (a fence longer than its backtick runs), on one line of the table.
  const keywordRow = rest.find((line) => line.startsWith('| Keyword |'))!;
  expect(keywordRow).toBe('| Keyword | ``` tea ``</code><b>x</b>`` \\| pipe next ``` |');
  expect(body).not.toMatch(/\u0007/);
});

test('a revision whose instruction and summary carry line breaks, a trailer and HTML gives a one-line commit subject and an escaped answer', async () => {
  const instruction =
    'Remove the section about pages to link to. Please mention <img src=x onerror=alert(1)>\r\n\n# Heading\u2028Co-authored-by: Mallory <mallory@evil.example>\rSigned-off-by: Mallory <mallory@evil.example>';
  const commitsBefore = w.github.branchHistory('acme', 'site', opened.branch).length;
  expect((await w.api.post(`/articles/${opened.articleId}/revise`, { instruction })).status).toBe(
    202,
  );
  const answers = () =>
    w.github
      .repository('acme', 'site')
      .comments.filter((c) => c.issueNumber === opened.prNumber && c.author === 'inkbot');
  const [answer] = await eventually(
    async () => answers(),
    (found) => found.length === 1,
    { what: 'the answer to the revision' },
  );

  const history = w.github.branchHistory('acme', 'site', opened.branch);
  expect(history).toHaveLength(commitsBefore + 1);
  const lines = history[0].message.split('\n');
  expect(lines).toHaveLength(6); // subject, blank, the summary on one line, blank, two Inkstream trailers
  for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f\u2028\u2029]/);
  expect(lines.filter((line) => TRAILERS.test(line)).map((line) => line.split(':')[0])).toEqual([
    'Inkstream-Article',
    'Inkstream-Revision',
  ]);

  const [marker, ...rest] = answer.body.split('\n');
  expect(marker).toMatch(/^<!-- inkstream:revision:rev_[^ ]+ -->$/);
  const outsideCodeSpans = (line: string) => line.replace(/(`+) .*? \1|(`+)[^`]*\2/g, '');
  for (const line of rest) expect(outsideCodeSpans(line)).not.toMatch(RAW_ANGLE);
  expect(rest.filter((line) => /^(#|Co-authored-by|Signed-off-by)/.test(line))).toEqual([]);
  expect(answer.body).toContain('\\<img src=x onerror=alert\\(1\\)\\>');
});

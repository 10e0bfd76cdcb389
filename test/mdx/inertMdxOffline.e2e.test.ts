import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseMdx } from '../../src/mdx/mdx.ts';
import { codeOfText } from '../../src/mdx/neutralise.ts';
import { PWN, renderedText, runMdx } from '../support/runMdx.ts';
import { page } from '../support/testSite.ts';
import { articleIn, startWorld, type World } from '../features/publishing/world.ts';

/**
 * The offline writer (no model configured) with hostile input from both sides it reads: a topic
 * whose keyword holds an MDX expression, and a crawled page whose same-site link carries one in
 * its query. What lands in the repository is compiled as a site build would.
 */
const HOSTILE_LINK = `/blog/sourdough-starter?q=)x{${PWN.replace(/ /g, '')}}`;

let w: World;
let projectId: string;
beforeAll(async () => {
  w = await startWorld({
    sitePages: {
      '/blog': page(
        `<h1>Blog</h1><ul><li><a href="${HOSTILE_LINK}">Sourdough starter care</a></li><li><a href="/blog/pricing-sourdough">How to price a sourdough loaf</a></li></ul>`,
        'Blog',
      ),
      [HOSTILE_LINK]: page(
        '<h1>Sourdough starter care</h1><p>Feed your sourdough starter every day. A healthy sourdough starter smells sweet and doubles in six hours.</p>',
        'Sourdough starter care',
      ),
    },
  });
  projectId = await w.project();
});
afterAll(() => w.close());

test('a hostile topic keyword and a crawled link with `)x{…}` in its query are committed as text and links: nothing in the file runs', async () => {
  expect((await w.connect(projectId)).status).toBe(200);
  const keyword = `sourdough starter {${PWN}} <Script/>`;
  const topic = await w.api.post(`/projects/${projectId}/topics`, {
    title: 'Sourdough starter care',
    keyword,
  });
  expect(topic.status).toBe(201);
  const articleId = (await w.api.post(`/topics/${topic.body.topic.id}/write`)).body.article.id;
  const draft = await articleIn(w.api, articleId, ['draft']);
  expect(w.site.requested(HOSTILE_LINK)).toBe(true);

  expect(parseMdx(draft.content).frontmatter.keyword).toBe(keyword); // YAML keeps the value exactly
  // Inkstream's own writer escaped the body: nothing there had to be caught. The description is a
  // YAML string that quotes the keyword; what MDX would see in it is listed for the reviewer.
  expect(draft.neutralised.filter((entry: { field: string }) => entry.field === 'body')).toEqual(
    [],
  );
  expect(draft.neutralised).toContainEqual({
    kind: 'expression',
    field: 'description',
    excerpt: expect.stringMatching(/^\{globalThis/i),
  });
  expect(codeOfText(draft.body)).toEqual([]);
  expect(draft.body).toContain('%7BglobalThis.__inkstreamPwned=1%7D'); // the link's destination, percent-encoded

  await w.api.post(`/articles/${articleId}/approve`);
  const open = await articleIn(w.api, articleId, ['pr_open']);
  const committed = w.github.fileAt('acme', 'site', open.branch, open.path)!.toString('utf8');
  expect(committed).toBe(draft.content);
  const run = await runMdx(committed);
  expect(run.ran).toBeUndefined();
  expect(renderedText(run.rendered).toLowerCase()).toContain(
    `sourdough starter {${PWN}} <script/>`.toLowerCase(),
  ); // the reader sees the keyword as typed
});

import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../../../support/inkstream.ts';
import { page, startTestSite, type TestSite } from '../../../../support/testSite.ts';
import { SOLAR_PAGES } from './solarFixtures.ts';

/** Sunhouse's pages as HTML, the home page linking to the others so the crawl finds them. */
const html = (text: string): string =>
  text
    .split('\n\n')
    .map((block) =>
      block.startsWith('## ')
        ? `<h2>${block.slice(3)}</h2>`
        : block.startsWith('# ')
          ? `<h1>${block.slice(2)}</h1>`
          : `<p>${block}</p>`,
    )
    .join('');

let site: TestSite;
let app: TestInkstream;

beforeAll(async () => {
  const links = SOLAR_PAGES.slice(1)
    .map((p) => `<a href="${new URL(p.url).pathname}">${p.title.split(' | ')[0]}</a>`)
    .join(' ');
  site = await startTestSite({
    replaceDefaults: true,
    pages: Object.fromEntries(
      SOLAR_PAGES.map((p, index) => [
        new URL(p.url).pathname,
        page(`${html(p.text)}${index === 0 ? `<p>${links}</p>` : ''}`, p.title),
      ]),
    ),
  });
  app = await startInkstream();
});

afterAll(async () => {
  await app?.close();
  await site?.close();
});

test("without a model, the brief quoting the site's blog post, ranges and product names passes every check", async () => {
  const api = app.api();
  const projectId = (await api.post('/projects', { name: 'Sunhouse', websiteUrl: site.origin }))
    .body.project.id as string;
  const project = await eventually(
    () => api.get(`/projects/${projectId}`).then((r) => r.body.project),
    (p) => p.crawl.status !== 'pending',
    { what: 'the crawl' },
  );
  expect(project.crawl.status).toBe('done');
  const topic = (
    await api.post(`/projects/${projectId}/topics`, {
      title: 'Choosing a home battery: the Cell 5 or the Cell 10',
      keyword: 'home battery',
    })
  ).body.topic;
  const articleId = (await api.post(`/topics/${topic.id}/write`)).body.article.id as string;
  const article = await eventually(
    () => api.get(`/articles/${articleId}`).then((r) => r.body.article),
    (a) => a.status === 'draft' || a.status === 'failed',
    { what: 'the brief', timeoutMs: 20_000 },
  );
  expect(article.status).toBe('draft');
  // The brief quotes the blog post's superlative, the range with its unit and the product names.
  expect(article.content).toContain('not the biggest one');
  expect(article.content).toMatch(/2–4 kW/);
  expect(article.content).toMatch(/Cell 10/);
  const verdicts = Object.fromEntries(
    (article.checks as Array<{ name: string; status: string; message: string }>).map((check) => [
      check.name,
      check,
    ]),
  );
  for (const name of Object.keys(verdicts)) expect(verdicts[name].status, name).toBe('pass');
  expect(verdicts.grounding.message).toMatch(/^All \d+ checkable claims are supported/);
  expect(verdicts.length.message).toMatch(/^Not checked: this is a brief/);
  expect(verdicts.headings.message).toMatch(/^Not checked: this is a brief/);
  expect(verdicts.keyword.message).toMatch(/^Not checked: this is a brief/);
}, 60_000);

import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { ActiveArticle, Generation } from '../../src/domain/articles/article.ts';
import { buildMdx, mdxBodyOf, parseMdx } from '../../src/mdx/mdx.ts';
import { mdxGateProblem } from '../../src/mdx/mdxGate.ts';
import { codeOfText, neutraliseMdx } from '../../src/mdx/neutralise.ts';
import { normalizePageUrl } from '../../src/integrations/crawler/siteScope.ts';
import { reviseOffline } from '../../src/integrations/llm/offline/revise.ts';
import { researchOffline } from '../../src/integrations/llm/offline/research.ts';
import { writeOffline } from '../../src/integrations/llm/offline/write.ts';
import type { Draft, PageInput } from '../../src/integrations/llm/writer.ts';
import { buildDraft } from '../../src/features/pipeline/writing/draftMdx.ts';
import type { ActiveProject } from '../../src/domain/projects/project.ts';
import { fernleafBrand as brand, fernleafPages } from '../support/brandFixture.ts';
import { PWN, runMdx } from '../support/runMdx.ts';

/**
 * Whatever text arrives from outside (topic fields, crawled page text, titles and links, model
 * answers, revision instructions), the file Inkstream would commit holds no import/export, JSX or
 * expression, passes the gate, and compiles and runs with @mdx-js/mdx without running any of it.
 */
const PIECES = [
  '{',
  '}',
  '<',
  '>',
  '</',
  '/>',
  '{x}',
  `{${PWN}}`,
  '<Script/>',
  '<b>',
  '</b>',
  '<!--',
  '-->',
  'import ',
  'export ',
  `import fs from 'node:fs'`,
  `export const a = (${PWN})`,
  '\n',
  '\n\n',
  '    ',
  '`',
  '```',
  '[',
  ']',
  '(',
  ')',
  '](',
  '\\',
  '&',
  '&#123;',
  '#',
  '- ',
  '1. ',
  '> ',
  '*',
  '_',
  '|',
  ':',
  '"',
  "'",
  '---',
  'http://x/',
  'tea',
  ' ',
  'a',
  'É',
  '\u0000',
  '\t',
  '$',
];
const hostile = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 60, unit: 'grapheme' }),
);
const nonEmpty = hostile.map((text) => text.trim() || 'tea');

const generation: Generation = {
  provider: 'offline',
  model: 'inkstream-offline-1',
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
};
const project = {
  name: 'Fernleaf',
  brand: null,
  settings: { covers: { enabled: false } },
  websiteUrl: 'https://fernleaf.example',
  blogUrl: null,
  sitemapUrl: null,
  pages: [],
} as unknown as ActiveProject;
const article = (keyword: string) =>
  ({ mdx: null, slug: null, keyword, outline: [], claims: [] }) as unknown as ActiveArticle;
const built = (keyword: string, draft: Draft) =>
  buildDraft({
    article: article(keyword),
    project,
    draft,
    generation,
    purpose: 'write',
    at: '2026-11-25T12:00:00.000Z',
  }).mdx;

/** The file with its body replaced, as a revision records it (the frontmatter stays). */
const withBody = (file: string, body: string): string => buildMdx(parseMdx(file).frontmatter, body);

async function expectInert(file: string, baseline: string | null = null): Promise<void> {
  expect(mdxGateProblem(file, baseline)).toBeNull();
  if (baseline === null) expect(codeOfText(mdxBodyOf(file))).toEqual([]);
  expect((await runMdx(file)).ran).toBeUndefined();
}

test('the offline writer: hostile topic fields, crawled text, page titles and links', async () => {
  await fc.assert(
    fc.asyncProperty(
      nonEmpty,
      hostile,
      hostile,
      hostile,
      hostile,
      hostile,
      async (keyword, title, text, pageTitle, href, instruction) => {
        const url =
          normalizePageUrl(href, 'https://fernleaf.example/guides/') ?? 'https://fernleaf.example/';
        const pages: PageInput[] = [
          { url, title: pageTitle, headings: [pageTitle], text: `${keyword} ${text}` },
          fernleafPages[0],
        ];
        const topic = { title: title.trim() || 'Tea', keyword, brief: text };
        const research = researchOffline({ topic, brand, pages });
        const draft = writeOffline({ topic, brand, research, pages });
        const file = built(keyword, draft);
        await expectInert(file);
        expect(parseMdx(file).frontmatter).toMatchObject({ keyword, title: draft.title }); // YAML keeps every value exactly

        const { body } = parseMdx(file);
        const revised = reviseOffline({
          body,
          instruction: instruction.trim() || 'add a section about tea',
          brand,
          topic,
          outline: research.outline,
          pages,
        });
        const inert = neutraliseMdx(revised.body, body);
        await expectInert(withBody(file, inert.text), file);
      },
    ),
    { numRuns: 40 },
  );
}, 30_000);

test('model answers: any draft body, title and description, and any revised body', async () => {
  await fc.assert(
    fc.asyncProperty(
      hostile,
      hostile,
      hostile,
      hostile,
      async (body, title, description, revisedBody) => {
        const file = built('tea', {
          title: title || 'Tea',
          description,
          body,
          tags: ['tea'],
          internalLinks: [],
        });
        await expectInert(file);
        const inert = neutraliseMdx(revisedBody, parseMdx(file).body);
        await expectInert(withBody(file, inert.text), file);
      },
    ),
    { numRuns: 150 },
  );
}, 30_000);

import { expect, test } from 'vitest';
import { buildMdx, parseMdx } from '../../src/mdx/mdx.ts';
import { mdxGateProblem } from '../../src/mdx/mdxGate.ts';
import { neutraliseMdx } from '../../src/mdx/neutralise.ts';
import { PWN, runMdx } from '../support/runMdx.ts';

const file = (body: string) => `---\ntitle: Proofing\n---\n\n${body}\n`;
const CALLOUT = '<Callout type="tip">Proof overnight in the fridge.</Callout>';

test("a file that adds JSX, an expression or an import the repository's version does not have is refused, saying what", () => {
  expect(mdxGateProblem(file(`Proof it. {${PWN}}`), null)).toMatch(
    /would add an expression \("\{globalThis.__inkstreamPwned = 1\}"\).*not written/,
  );
  expect(
    mdxGateProblem(file('<Script src="https://evil.example/x.js" />'), file('Proof it.')),
  ).toMatch(/a JSX element/);
  expect(mdxGateProblem(file("import fs from 'node:fs'"), null)).toMatch(/an import\/export/);
  expect(mdxGateProblem(file('Proof it {'), null)).toMatch(/not valid MDX/);
});

test("a maintainer's component already in the repository's version stays; a second copy of it does not", () => {
  const published = file(`Intro.\n\n${CALLOUT}\n\nMore.`);
  expect(mdxGateProblem(file(`New intro.\n\n${CALLOUT}\n\nMore.`), published)).toBeNull();
  expect(mdxGateProblem(file(`${CALLOUT}\n\n${CALLOUT}`), published)).toMatch(/a JSX element/);
});

test('a revision keeps the component the version it revises had and neutralises the one the model added', () => {
  const before = `Intro.\n\n${CALLOUT}\n`;
  const revised = neutraliseMdx(
    `Shorter intro.\n\n${CALLOUT}\n\n<Callout type="warning">{${PWN}}</Callout>\n`,
    before,
  );
  expect(revised.text).toContain(`\n${CALLOUT}\n`);
  expect(revised.neutralised).toEqual([
    { kind: 'jsx', field: 'body', excerpt: `<Callout type="warning">{${PWN}}</Callout>` },
  ]);
  expect(mdxGateProblem(file(revised.text), file(before))).toBeNull();
});

test('a revised body is made inert as the file will hold it: trimmed, so an indented line cannot become an export', () => {
  const revised = neutraliseMdx('\texport ](', 'Intro.');
  expect(revised.neutralised.map((entry) => entry.kind)).toEqual(['esm']);
  expect(mdxGateProblem(file(revised.text), null)).toBeNull();
});

test('JavaScript frontmatter is never evaluated: reading it fails, and the gate refuses the file', async () => {
  const js = `---js\n{ title: (${PWN}) }\n---\n\nHello.\n`;
  expect(() => parseMdx(js)).toThrow(/JavaScript frontmatter is not read/);
  expect(mdxGateProblem(js, null)).toMatch(/not valid MDX \(JavaScript frontmatter is not read/);
  expect((globalThis as Record<string, unknown>).__inkstreamPwned).toBeUndefined();
});

test('frontmatter values are YAML strings that come back exactly, whatever they hold', async () => {
  const title = `Proofing: "the\nbasics" --- {${PWN}} <b>\n---js\n# 1`;
  const mdx = buildMdx(
    {
      title,
      description: `a: b\n- c\n${'x'.repeat(200)}`,
      slug: 'p',
      date: '2026-01-01',
      keyword: '{k}',
      tags: ['[a]', '&b'],
      author: 'A',
      generator: { provider: 'offline', model: 'm' },
    },
    'Body.',
  );
  expect(parseMdx(mdx).frontmatter).toMatchObject({ title, keyword: '{k}', tags: ['[a]', '&b'] });
  expect(parseMdx(mdx).body).toBe('Body.\n');
  expect((await runMdx(mdx)).ran).toBeUndefined();
});

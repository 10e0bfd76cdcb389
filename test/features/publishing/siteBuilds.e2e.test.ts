import { load } from 'cheerio';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { LearnedProfile } from '../../../src/domain/integrations/contentProfile.ts';
import { siteGateProblem } from '../../../src/features/publishing/site/inertForEngine.ts';
import { renderForSite } from '../../../src/features/publishing/site/renderForSite.ts';
import { validateForSite } from '../../../src/features/publishing/site/validateForSite.ts';
import {
  buildSite,
  layFiles,
  siteCopy,
  siteTest,
  type SiteName,
} from '../../support/fixtureSites.ts';
import { canonicalArticle, HOSTILE_SHOWN } from '../../support/siteProfiles.ts';
import { learnSite } from '../../support/siteRepository.ts';

/**
 * The "real build passes": Inkstream's committed files laid over each fixture site, and
 * the site's own toolchain builds it offline. Each toolchain builds once, with two articles: one
 * whose title and body carry every engine's hostile payload, one plain. The files are rendered with
 * the profile the learner makes of the fixture site itself (read from disk as GitHub lists it),
 * so what is tested is the whole path: learn, render, validate, build.
 */

const PNG = readFileSync(
  join(import.meta.dirname, '../../fixtures/sites/astro/src/assets/blog-placeholder-1.png'),
);
const TITLE = 'Measure what matters {{ 7*7 }} {% now %}';
const SETTINGS = { contentDirectory: 'content/blog', coverDirectory: 'public/images/covers' };

const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

/**
 * What a reader sees: the text of the element, with the zero-width breaks Inkstream may insert
 * removed, and typographic quotes (Hugo's goldmark typographer, on by default) read as straight ones.
 */
const shownText = (html: string, selector: string): string =>
  load(html)(selector).text().replaceAll('\u200b', '').replace(/[“”]/g, '"').replace(/[‘’]/g, "'");

/** The learner's profile of the fixture site. */
async function learned(name: SiteName): Promise<LearnedProfile> {
  const { learned, failureReason } = await learnSite(name);
  if (!learned) throw new Error(`the ${name} fixture site was not learned: ${failureReason}`);
  return learned;
}

/** Both articles rendered for the profile, each file checked as the publisher checks it. */
function committedFiles(profile: LearnedProfile) {
  const articles = [
    {
      slug: 'measure-what-matters',
      mdx: canonicalArticle({ slug: 'measure-what-matters', title: TITLE }),
    },
    {
      slug: 'a-second-article',
      mdx: canonicalArticle({
        slug: 'a-second-article',
        title: 'A second article',
        date: '2026-11-21',
        tags: ['analytics'],
        author: 'Jane Doe',
        body: 'The second article, plain.\n\n## More\n\nNothing special here.',
      }),
    },
  ];
  return articles.flatMap(({ slug, mdx }) => {
    const rendered = renderForSite({ mdx, slug, cover: PNG, settings: SETTINGS }, profile);
    expect(rendered.problems).toEqual([]);
    const post = rendered.post!;
    expect(
      validateForSite(
        post,
        profile,
        rendered.files.map((file) => file.path),
      ),
    ).toEqual([]);
    expect(
      siteGateProblem(post, profile.templateEngine, profile.excerptSeparator, null),
    ).toBeNull();
    return rendered.files;
  });
}

/** A site's test: skipped where its toolchain is missing, run (and failing with the reason) on CI. */
async function siteCase(name: SiteName) {
  const { skip, missing } = await siteTest(name);
  return { run: skip ? test.skip : test, missing };
}

const astro = await siteCase('astro');
const hugo = await siteCase('hugo');
const docusaurus = await siteCase('docusaurus');
const eleventy = await siteCase('eleventy');

const expectPayloadsShown = (text: string) => {
  for (const payload of HOSTILE_SHOWN) expect(text).toContain(payload);
};

describe.concurrent('the files Inkstream commits build with each site’s own toolchain', () => {
  astro.run(
    'Astro (blog template: pubDate, heroImage: image())',
    async () => {
      if (astro.missing) throw new Error(astro.missing);
      const site = siteCopy('astro');
      copies.push(site);
      layFiles(site, committedFiles(await learned('astro')));
      const { output } = await buildSite('astro', site);
      const html = readFileSync(join(output, 'blog/measure-what-matters/index.html'), 'utf8');
      expect(shownText(html, 'h1')).toBe(TITLE);
      const cover = load(html)('.hero-image img').attr('src')!;
      expect(cover).toMatch(/^\/_astro\/.+\.webp$/);
      expect(existsSync(join(output, cover))).toBe(true);
      expectPayloadsShown(shownText(html, 'article'));
      expect(shownText(readFileSync(join(output, 'index.html'), 'utf8'), 'li')).toContain(
        'A second article',
      );
    },
    240_000,
  );

  hugo.run(
    'Hugo (page bundle, cover: { image, alt }, shortcodes)',
    async () => {
      if (hugo.missing) throw new Error(hugo.missing);
      const site = siteCopy('hugo');
      copies.push(site);
      layFiles(site, committedFiles(await learned('hugo')));
      const { output } = await buildSite('hugo', site);
      const html = readFileSync(join(output, 'posts/measure-what-matters/index.html'), 'utf8');
      expect(shownText(html, 'h1')).toBe(TITLE);
      const cover = load(html)('.entry-cover img');
      expect(cover.attr('src')).toBe('/posts/measure-what-matters/cover.png');
      expect(cover.attr('alt')?.replaceAll('\u200b', '')).toBe(TITLE);
      expect(existsSync(join(output, 'posts/measure-what-matters/cover.png'))).toBe(true);
      expectPayloadsShown(shownText(html, '.post-content'));
      expect(existsSync(join(output, 'posts/a-second-article/index.html'))).toBe(true);
    },
    240_000,
  );

  docusaurus.run(
    'Docusaurus (classic blog, authors.yml and tags.yml enforced, MDX)',
    async () => {
      if (docusaurus.missing) throw new Error(docusaurus.missing);
      const site = siteCopy('docusaurus');
      copies.push(site);
      layFiles(site, committedFiles(await learned('docusaurus')));
      const { output } = await buildSite('docusaurus', site);
      const html = readFileSync(join(output, '2026/11/20/measure-what-matters/index.html'), 'utf8');
      const page = load(html);
      expect(shownText(html, 'article h1')).toBe(TITLE);
      expect(page('meta[property="og:image"]').attr('content')).toBe(
        'https://example.com/img/blog/measure-what-matters.png',
      );
      expect(existsSync(join(output, 'img/blog/measure-what-matters.png'))).toBe(true);
      expect(shownText(html, 'article')).toContain('Acme Analytics'); // the author from authors.yml
      expectPayloadsShown(shownText(html, 'article'));
      // The index shows the introduction only: the truncate marker went after it.
      const index = shownText(readFileSync(join(output, 'index.html'), 'utf8'), 'main');
      expect(index).toContain('Measuring what matters starts with a question.');
      expect(index).not.toContain('Template engines');
    },
    300_000,
  );

  eleventy.run(
    'Eleventy (base blog: Markdown run through Nunjucks)',
    async () => {
      if (eleventy.missing) throw new Error(eleventy.missing);
      const site = siteCopy('eleventy');
      copies.push(site);
      // The control: the same payload written raw (not by Inkstream) does run in this build.
      layFiles(site, [
        {
          path: 'content/blog/control.md',
          content:
            "---\ntitle: Control\n---\n{{ range.constructor(\"return process.getBuiltinModule('fs').writeFileSync('CONTROL-RAN.txt', 'x')\")() }}\n",
        },
        ...committedFiles(await learned('eleventy')),
      ]);
      const { output } = await buildSite('eleventy', site);
      expect(existsSync(join(site, 'CONTROL-RAN.txt'))).toBe(true);
      expect(existsSync(join(site, 'PWNED-nunjucks.txt'))).toBe(false);
      const html = readFileSync(join(output, 'blog/measure-what-matters/index.html'), 'utf8');
      expect(shownText(html, 'h1')).toBe(TITLE);
      expectPayloadsShown(shownText(html, 'main'));
      expect(existsSync(join(output, 'blog/a-second-article/index.html'))).toBe(true);
    },
    240_000,
  );
});

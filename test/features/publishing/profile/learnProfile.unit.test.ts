import { describe, expect, test } from 'vitest';
import type {
  FieldRule,
  LearnedProfile,
} from '../../../../src/domain/integrations/contentProfile.ts';
import { fixtureRepos } from '../../../fixtures/repos/index.ts';
import { siteGateProblem } from '../../../../src/features/publishing/site/inertForEngine.ts';
import { renderForSite } from '../../../../src/features/publishing/site/renderForSite.ts';
import { validateForSite } from '../../../../src/features/publishing/site/validateForSite.ts';
import { canonicalArticle } from '../../../support/siteProfiles.ts';
import { learnFromFiles } from './repoTree.ts';

/**
 * The table test of issue 27: each fixture repository, written from its toolchain's public starter,
 * yields the profile a person would write down after reading the site.
 */

type Expected = Pick<
  LearnedProfile,
  | 'toolchain'
  | 'fileName'
  | 'extension'
  | 'frontmatterFormat'
  | 'templateEngine'
  | 'servedRoot'
  | 'permalink'
> & {
  directory: string;
  /** Required fields: role, name, type (format), file:line. */
  required: string[];
  images: string | null;
  excerptSeparator?: string | null;
};

const field = (f: FieldRule) =>
  `${f.role}:${f.name}:${f.type}${f.format ? `(${f.format})` : ''}@${f.source.file}${f.source.line === undefined ? '' : `:${f.source.line}`}`;

const table: Record<string, Expected> = {
  astroBlog: {
    toolchain: 'astro',
    directory: 'src/content/blog',
    fileName: '{slug}.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'none',
    servedRoot: 'public',
    permalink: '/blog/{slug}/',
    required: [
      'title:title:string@src/content.config.ts:11',
      'description:description:string@src/content.config.ts:12',
      'date:pubDate:date@src/content.config.ts:14',
    ],
    images: 'relative src/assets jpg',
  },
  astroPaper: {
    toolchain: 'astro',
    directory: 'src/data/blog',
    fileName: '{slug}.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'none',
    servedRoot: 'public',
    permalink: '/posts/{slug}/',
    required: [
      'date:pubDatetime:datetime@src/content.config.ts:12',
      'title:title:string@src/content.config.ts:14',
      'description:description:string@src/content.config.ts:19',
    ],
    images: 'relative src/assets/images png',
  },
  hugoPaperMod: {
    toolchain: 'hugo',
    directory: 'content/posts',
    fileName: '{slug}.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'hugo',
    servedRoot: 'static',
    permalink: '/posts/{year}/{slug}/',
    required: [
      'title:title:string@content/posts/first.md:2',
      'date:date:datetime@content/posts/first.md:3',
      'draft:draft:boolean@content/posts/first.md:4',
      'tags:tags:string[]@content/posts/first.md:5',
      'description:description:string@content/posts/first.md:6',
      'cover:cover:object({ image, alt })@content/posts/first.md:7',
    ],
    images: 'absolute static/images /images png',
    excerptSeparator: '<!--more-->',
  },
  docusaurusClassic: {
    toolchain: 'docusaurus',
    directory: 'blog',
    fileName: '{date}-{slug}.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'mdx',
    servedRoot: 'static',
    permalink: '/blog/{slug}',
    required: [
      'slug:slug:string@blog/2019-05-28-first-blog-post.md:2',
      'title:title:string@blog/2019-05-28-first-blog-post.md:3',
      // Authors and tags are keys Docusaurus checks against blog/authors.yml and tags.yml, but a
      // post builds without them: not required (Inkstream cannot invent a key).
    ],
    images: 'absolute static/img/blog /img/blog png',
    excerptSeparator: '<!-- truncate -->',
  },
  jekyllMinima: {
    toolchain: 'jekyll',
    directory: '_posts',
    fileName: '{date}-{slug}.markdown',
    extension: 'markdown',
    frontmatterFormat: 'yaml',
    templateEngine: 'liquid',
    servedRoot: '.',
    permalink: '/{year}/{month}/{day}/{slug}.html',
    required: [
      'title:title:string@_posts/2024-11-20-welcome-to-jekyll.markdown:3',
      'date:date:datetime@_posts/2024-11-20-welcome-to-jekyll.markdown:4',
      'categories:categories:string@_posts/2024-11-20-welcome-to-jekyll.markdown:5',
    ],
    images: 'absolute assets/images /assets/images png',
  },
  eleventyBaseBlog: {
    toolchain: 'eleventy',
    directory: 'content/blog',
    fileName: '{slug}.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'nunjucks',
    servedRoot: 'public',
    permalink: '/blog/{slug}/',
    required: [
      'title:title:string@content/blog/firstpost.md:2',
      'description:description:string@content/blog/firstpost.md:3',
      'date:date:date@content/blog/firstpost.md:4',
      'tags:tags:string[]@content/blog/firstpost.md:5',
    ],
    images: 'absolute public/img /img png',
  },
  nextContentlayer: {
    toolchain: 'nextjs',
    directory: 'data/blog',
    fileName: '{slug}.mdx',
    extension: 'mdx',
    frontmatterFormat: 'yaml',
    templateEngine: 'mdx',
    servedRoot: 'public',
    permalink: '/blog/{slug}',
    required: [
      'title:title:string@contentlayer.config.ts:17',
      'date:date:date@contentlayer.config.ts:18',
    ],
    images: 'absolute public/static/images /static/images jpg',
  },
  nextVelite: {
    toolchain: 'nextjs',
    directory: 'content/posts',
    fileName: '{slug}/index.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'none',
    servedRoot: 'public',
    permalink: '/blog/{slug}',
    required: [
      'title:title:string@velite.config.ts:10',
      'slug:slug:string@velite.config.ts:11',
      'date:date:datetime(ISO 8601)@velite.config.ts:12',
    ],
    images: 'bundle content/posts/{slug} jpg',
  },
  gatsbyStarterBlog: {
    toolchain: 'gatsby',
    directory: 'content/blog',
    fileName: '{slug}/index.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'none',
    servedRoot: 'static',
    permalink: '/{slug}/',
    required: [
      'title:title:string@content/blog/hello-world/index.md:2',
      'date:date:string(ISO 8601)@content/blog/hello-world/index.md:3',
      'description:description:string@content/blog/hello-world/index.md:4',
    ],
    images: 'bundle content/blog/{slug} jpg',
  },
  plainFolder: {
    toolchain: 'plain',
    directory: 'articles',
    fileName: '{slug}.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'none',
    servedRoot: null,
    permalink: null,
    required: [
      'title:title:string@articles/drafts-folder.md:2',
      'date:date:date@articles/drafts-folder.md:3',
      'description:summary:string@articles/on-editing.md:4',
      'tags:tags:string[]@articles/on-editing.md:5',
    ],
    images: null,
  },
};

describe('each fixture repository yields the profile its site needs', () => {
  test.each(Object.entries(table))('%s', async (name, expected) => {
    const { learned, failureReason } = await learnFromFiles(fixtureRepos[name].files);
    expect(failureReason).toBeNull();
    const profile = learned!;
    const images = profile.images
      ? [
          profile.images.reference,
          profile.images.directory,
          profile.images.urlPrefix,
          profile.images.format,
        ]
          .filter(Boolean)
          .join(' ')
      : null;
    expect({
      toolchain: profile.toolchain,
      directory: profile.collection.directory,
      fileName: profile.fileName,
      extension: profile.extension,
      frontmatterFormat: profile.frontmatterFormat,
      templateEngine: profile.templateEngine,
      servedRoot: profile.servedRoot,
      permalink: profile.permalink,
      required: profile.fields.filter((f) => f.required).map(field),
      images,
      ...('excerptSeparator' in expected ? { excerptSeparator: profile.excerptSeparator } : {}),
    }).toEqual(expected);
  });

  test("Astro's image() cover is an image resolved relative to the post; the updated date is optional", async () => {
    const { learned } = await learnFromFiles(fixtureRepos.astroBlog.files);
    expect(learned!.fields.find((f) => f.role === 'cover')).toMatchObject({
      name: 'heroImage',
      type: 'image',
      required: false,
      source: { file: 'src/content.config.ts', line: 16 },
    });
    expect(learned!.fields.find((f) => f.role === 'updated')).toMatchObject({
      name: 'updatedDate',
      required: false,
    });
  });

  test('AstroPaper reads .md only: its .mdx-less glob wins over any vote', async () => {
    const files = { ...fixtureRepos.astroPaper.files };
    for (const n of [1, 2, 3, 4, 5]) files[`src/data/blog/extra-${n}.mdx`] = '---\ntitle: x\n---\n';
    const { learned } = await learnFromFiles(files);
    expect(learned!.extension).toBe('md');
    expect(learned!.fileName).toBe('{slug}.md');
  });

  test('Hugo page bundles: a folder per post, its images beside it', async () => {
    const bundle = (slug: string) =>
      `+++\ntitle = '${slug}'\ndate = 2024-01-02T10:00:00Z\ncover = 'cover.png'\n+++\n\n![x](cover.png)\n`;
    const { learned } = await learnFromFiles({
      'hugo.toml':
        "baseURL = 'https://example.org/'\n[permalinks]\n  [permalinks.page]\n    blog = '/:year/:month/:slug/'\n",
      'content/blog/one/index.md': bundle('one'),
      'content/blog/one/cover.png': 'PNG',
      'content/blog/two/index.md': bundle('two'),
      'content/blog/two/cover.png': 'PNG',
    });
    expect(learned).toMatchObject({
      fileName: '{slug}/index.md',
      frontmatterFormat: 'toml',
      permalink: '/{year}/{month}/{slug}/',
      images: { reference: 'bundle', directory: 'content/blog/{slug}', format: 'png' },
    });
    expect(learned!.fields.find((f) => f.role === 'date')).toMatchObject({ type: 'datetime' });
  });

  test('Hugo reads .md, not .mdx, whatever the posts are called', async () => {
    const files = { ...fixtureRepos.hugoPaperMod.files };
    for (const n of [1, 2, 3, 4, 5]) files[`content/posts/extra-${n}.mdx`] = '---\ntitle: x\n---\n';
    const { learned } = await learnFromFiles(files);
    expect(learned!.extension).toBe('md');
  });

  test('Docusaurus: authors are keys of authors.yml, tags come from tags.yml, the truncate marker is learned', async () => {
    const { learned } = await learnFromFiles(fixtureRepos.docusaurusClassic.files);
    expect(learned!.vocabulary.authors).toEqual([
      { key: 'yangshun', name: 'Yangshun Tay' },
      { key: 'slorber', name: 'Sébastien Lorber' },
    ]);
    expect(learned!.vocabulary.tags).toEqual(
      expect.arrayContaining(['facebook', 'hello', 'docusaurus', 'hola']),
    );
  });

  test('Contentlayer: summary is the description, its other document type is offered as an alternative', async () => {
    const { learned } = await learnFromFiles(fixtureRepos.nextContentlayer.files);
    expect(learned!.fields.find((f) => f.role === 'description')).toMatchObject({
      name: 'summary',
      required: false,
    });
    expect(learned!.fields.find((f) => f.role === 'cover')).toMatchObject({
      name: 'images',
      type: 'string[]',
    });
    expect(learned!.collection.alternatives.map((a) => a.directory)).toEqual(['data/authors']);
  });

  test('Eleventy outside the base blog runs Liquid over Markdown by default', async () => {
    const files = { ...fixtureRepos.eleventyBaseBlog.files };
    files['eleventy.config.js'] =
      'export default function (eleventyConfig) {}\nexport const config = { dir: { input: "content" } };\n';
    const { learned } = await learnFromFiles(files);
    expect(learned!.templateEngine).toBe('liquid');
  });

  test('TOML (+++) and JSON frontmatter are read as well as YAML', async () => {
    const toml = await learnFromFiles({
      'hugo.toml': "baseURL = 'https://example.org/'\n",
      'content/posts/a.md': "+++\ntitle = 'A'\ndate = 2024-01-02\ntags = ['x']\n+++\n\nBody.\n",
      'content/posts/b.md': "+++\ntitle = 'B'\ndate = 2024-02-03\n+++\n\nBody.\n",
    });
    expect(toml.learned!.frontmatterFormat).toBe('toml');
    expect(toml.learned!.fields.filter((f) => f.required).map(field)).toEqual([
      'title:title:string@content/posts/a.md:2',
      'date:date:date@content/posts/a.md:3',
    ]);
    const json = await learnFromFiles({
      'notes/a.md': '{\n  "title": "A",\n  "date": "2024-01-02"\n}\n\nBody.\n',
      'notes/b.md': '{\n  "title": "B",\n  "date": "2024-01-03"\n}\n\nBody.\n',
    });
    expect(json.learned!.frontmatterFormat).toBe('json');
    expect(json.learned!.fields.map(field)).toEqual([
      'title:title:string@notes/a.md:2',
      'date:date:date@notes/a.md:3',
    ]);
  });

  test('a site with several collections chooses the blog-like one and offers the others', async () => {
    const { learned } = await learnFromFiles({
      'src/content.config.ts': `import { defineCollection, z } from 'astro:content';
import { glob } from 'astro/loaders';
const docs = defineCollection({ loader: glob({ base: './src/content/docs', pattern: '**/*.md' }), schema: z.object({ title: z.string() }) });
const posts = defineCollection({ loader: glob({ base: './src/content/posts', pattern: '**/*.md' }), schema: z.object({ title: z.string(), date: z.date(), kind: z.enum(['news', 'guide']).default('news') }) });
const authors = defineCollection({ loader: glob({ base: './src/content/authors', pattern: '**/*.json' }), schema: z.object({ name: z.string() }) });
export const collections = { docs, posts, authors };
`,
      ...Object.fromEntries(
        Array.from({ length: 6 }, (_, i) => [`src/content/docs/d${i}.md`, '---\ntitle: D\n---\n']),
      ),
      'src/content/posts/p.md': '---\ntitle: P\ndate: 2024-01-01\n---\n',
    });
    expect(learned!.collection).toMatchObject({ name: 'posts', directory: 'src/content/posts' });
    expect(learned!.collection.alternatives.map((a) => a.name)).toEqual(['docs']);
    expect(learned!.fields.map((f) => [f.name, f.required, f.values])).toEqual([
      ['title', true, undefined],
      ['date', true, undefined],
      ['kind', false, ['news', 'guide']],
    ]);
  });
  test('one post is not evidence that every post needs a cover, tags or a description', async () => {
    const post = (title: string) =>
      `---\ntitle: ${title}\ndate: 2024-01-02\ndescription: D\ntags: [x]\ncover: /images/${title}.png\n---\n\nBody.\n`;
    const one = await learnFromFiles({ 'posts/a.md': post('a') });
    expect(one.learned!.fields.map((f) => [f.name, f.required])).toEqual([
      ['title', true],
      ['date', true],
      ['description', false],
      ['tags', false],
      ['cover', false],
    ]);
    const two = await learnFromFiles({ 'posts/a.md': post('a'), 'posts/b.md': post('b') });
    expect(two.learned!.fields.every((f) => f.required)).toBe(true);
  });

  test('Docusaurus: tags are keys of the tags file the config names, by its line; none without one', async () => {
    const config = (blog: string) =>
      `export default {\n  presets: [['classic', {\n    blog: {\n${blog}    },\n  }]],\n};\n`;
    const post =
      '---\ntitle: Hi\nauthors: [jane]\ntags: [seo]\n---\n\nIntro.\n\n<!-- truncate -->\n\nMore.\n';
    const named = await learnFromFiles({
      'docusaurus.config.js': config(
        "      tags: 'labels.yml',\n      authorsMapPath: 'people.yml',\n",
      ),
      'blog/2024-01-02-hi.md': post,
      'blog/labels.yml': 'seo:\n  label: SEO\n',
      'blog/people.yml': 'jane:\n  name: Jane Doe\n',
    });
    const byRole = (learned: LearnedProfile | null, role: string) =>
      learned!.fields.find((f) => f.role === role);
    expect(byRole(named.learned, 'tags')).toMatchObject({
      type: 'reference[]',
      source: { file: 'docusaurus.config.js', line: 4 },
    });
    expect(byRole(named.learned, 'authors')).toMatchObject({
      type: 'reference[]',
      source: { file: 'docusaurus.config.js', line: 5 },
    });
    expect(named.learned!.vocabulary.authors).toEqual([{ key: 'jane', name: 'Jane Doe' }]);
    const none = await learnFromFiles({
      'docusaurus.config.js': config(''),
      'blog/2024-01-02-hi.md': post,
    });
    expect(byRole(none.learned, 'tags')).toMatchObject({ type: 'string[]' });
  });

  test("Docusaurus: a date-prefixed file name puts the date in the post's URL unless it sets a slug", async () => {
    const config =
      "export default { presets: [['classic', { blog: { showReadingTime: true } }]] };\n";
    const dated = await learnFromFiles({
      'docusaurus.config.js': config,
      'blog/2024-01-02-hi.md': '---\ntitle: Hi\n---\n\nText.\n',
    });
    expect(dated.learned!.permalink).toBe('/blog/{year}/{month}/{day}/{slug}');
    const slugged = await learnFromFiles({
      'docusaurus.config.js': config,
      'blog/2024-01-02-hi.md': '---\nslug: hi\ntitle: Hi\n---\n\nText.\n',
    });
    expect(slugged.learned!.permalink).toBe('/blog/{slug}');
  });
});

describe("Inkstream's own posts teach nothing about the site", () => {
  const inkstreamPost = (slug: string) => `---
title: ${slug}
description: Written by Inkstream
slug: ${slug}
date: 2026-11-01
keyword: ''
tags: []
author: Acme
generator:
  provider: offline
  model: offline
kind: brief
---

Body.
`;

  test('a folder holding only posts Inkstream wrote is not learned: Inkstream keeps its own shape', async () => {
    const { learned, failureReason } = await learnFromFiles({
      'README.md': '# Site\n',
      'content/blog/first.mdx': inkstreamPost('first'),
      'content/blog/second.mdx': inkstreamPost('second'),
    });
    expect(learned).toBeNull();
    expect(failureReason).toMatch(/only posts read in content\/blog were written by Inkstream/);
  });

  test('beside the site’s own posts, they are left out of the fields learned', async () => {
    const { learned } = await learnFromFiles({
      ...fixtureRepos.plainFolder.files,
      'articles/inkstream-one.md': inkstreamPost('inkstream-one'),
      'articles/inkstream-two.md': inkstreamPost('inkstream-two'),
    });
    const names = learned!.fields.map((f) => f.name);
    expect(names).not.toContain('keyword');
    expect(names).not.toContain('generator');
    expect(learned!.notes.join(' ')).toMatch(/2 of the posts read were written by Inkstream/);
  });
});

describe('the file written for each fixture repository validates against what was learned', () => {
  // A 1×1 PNG: the cover's bytes do not matter to the checks.
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  test.each(Object.keys(table))('%s', async (name) => {
    const profile = (await learnFromFiles(fixtureRepos[name].files)).learned!;
    const slug = 'measure-what-matters';
    const rendered = renderForSite(
      {
        mdx: canonicalArticle({ slug, title: 'Measure what matters {{ 7*7 }} {% now %}' }),
        slug,
        cover: PNG,
        settings: { contentDirectory: 'content/blog', coverDirectory: 'public/images/covers' },
      },
      profile,
    );
    expect(rendered.problems).toEqual([]);
    const paths = rendered.files.map((file) => file.path);
    expect(validateForSite(rendered.post!, profile, paths)).toEqual([]);
    expect(
      siteGateProblem(rendered.post!, profile.templateEngine, profile.excerptSeparator, null),
    ).toBeNull();
  });
});

import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type {
  FieldRule,
  LearnedProfile,
} from '../../../../src/domain/integrations/contentProfile.ts';
import { siteGateProblem } from '../../../../src/features/publishing/site/inertForEngine.ts';
import { renderForSite } from '../../../../src/features/publishing/site/renderForSite.ts';
import { validateForSite } from '../../../../src/features/publishing/site/validateForSite.ts';
import { type SiteName, sitesRoot } from '../../../support/fixtureSites.ts';
import { canonicalArticle } from '../../../support/siteProfiles.ts';
import { learnSite, readSiteTree } from '../../../support/siteRepository.ts';

/**
 * The learner run on the four fixture sites the real builds use (test/fixtures/sites), read from
 * disk as GitHub would list and serve them. Each expected profile is what the site's own files and
 * its toolchain's documentation say, every fact with the file (and line) it comes from; where the
 * learner first disagreed with the hand-written profile the builds used, the comment says why the
 * value below is the right one.
 */

const field = (
  role: FieldRule['role'],
  name: string,
  type: FieldRule['type'],
  required: boolean,
  file: string,
  line?: number,
  extra: Partial<FieldRule> = {},
): FieldRule => ({
  role,
  name,
  type,
  ...extra,
  required,
  source: line === undefined ? { file } : { file, line },
});

const ASTRO_SCHEMA = 'src/content.config.ts';
const HUGO_POST = 'content/posts/first-post/index.md';
const DOCUSAURUS_POST = 'blog/2024-03-01-welcome.md';
const ELEVENTY_POST = 'content/blog/firstpost.md';

const expected: Record<SiteName, LearnedProfile> = {
  astro: {
    // The content config is what made it Astro content collections (it imports astro:content).
    toolchain: 'astro',
    toolchainSource: { file: ASTRO_SCHEMA },
    // Line 7 is the glob loader that names the folder.
    collection: {
      name: 'blog',
      directory: 'src/content/blog',
      source: { file: ASTRO_SCHEMA, line: 7 },
      alternatives: [],
    },
    fileName: '{slug}.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'none',
    fields: [
      field('title', 'title', 'string', true, ASTRO_SCHEMA, 11),
      field('description', 'description', 'string', true, ASTRO_SCHEMA, 12),
      // z.coerce.date(): a YAML date is a Date already; the posts' `'Jul 08 2022'` is a text
      // that only V8's lenient Date parsing reads, so Inkstream writes the ISO date it accepts.
      field('date', 'pubDate', 'date', true, ASTRO_SCHEMA, 14),
      field('updated', 'updatedDate', 'date', false, ASTRO_SCHEMA, 15),
      field('cover', 'heroImage', 'image', false, ASTRO_SCHEMA, 16),
    ],
    vocabulary: { tags: [], authors: [] },
    // The only hero image is `../../assets/blog-placeholder-1.png`: the folder is src/assets.
    images: {
      reference: 'relative',
      directory: 'src/assets',
      urlPrefix: '',
      format: 'png',
      source: { file: 'src/content/blog/first-post.md', line: 5 },
    },
    servedRoot: 'public',
    permalink: '/blog/{slug}/',
    excerptSeparator: null,
    notes: [],
  },
  hugo: {
    toolchain: 'hugo',
    toolchainSource: { file: 'hugo.toml' },
    // hugo.toml names no section (no mainSections): the folder is what says `posts`.
    collection: {
      name: 'posts',
      directory: 'content/posts',
      source: { file: 'content/posts' },
      alternatives: [],
    },
    fileName: '{slug}/index.md',
    extension: 'md',
    frontmatterFormat: 'toml',
    templateEngine: 'hugo',
    // Hugo requires no field; one post is not evidence that every post needs a cover or tags.
    fields: [
      field('title', 'title', 'string', true, HUGO_POST, 2),
      field('date', 'date', 'datetime', true, HUGO_POST, 3),
      field('draft', 'draft', 'boolean', true, HUGO_POST, 4),
      field('description', 'description', 'string', false, HUGO_POST, 5),
      field('tags', 'tags', 'string[]', false, HUGO_POST, 6),
      field('cover', 'cover', 'object', false, HUGO_POST, 7, { format: '{ image, alt }' }),
    ],
    vocabulary: { tags: ['hugo'], authors: [] },
    images: {
      reference: 'bundle',
      directory: 'content/posts/{slug}',
      urlPrefix: '',
      format: 'png',
      source: { file: HUGO_POST, line: 7 },
    },
    servedRoot: 'static',
    permalink: '/posts/{slug}/',
    excerptSeparator: null,
    notes: [],
  },
  docusaurus: {
    toolchain: 'docusaurus',
    toolchainSource: { file: 'docusaurus.config.js' },
    collection: {
      name: 'blog',
      directory: 'blog',
      source: { file: 'docusaurus.config.js', line: 21 },
      alternatives: [],
    },
    fileName: '{date}-{slug}.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'mdx',
    // "Docusaurus will be able to infer all necessary metadata without the front matter".
    fields: [
      field('title', 'title', 'string', true, DOCUSAURUS_POST, 2),
      field('description', 'description', 'string', false, DOCUSAURUS_POST, 3),
      // authorsMapPath and tags name the files the blog checks keys against (onInline*: throw).
      field('authors', 'authors', 'reference[]', false, 'docusaurus.config.js', 24),
      field('tags', 'tags', 'reference[]', false, 'docusaurus.config.js', 25),
      field('cover', 'image', 'string', false, DOCUSAURUS_POST, 6),
    ],
    vocabulary: {
      tags: ['seo', 'analytics'],
      authors: [
        { key: 'jane', name: 'Jane Doe' },
        { key: 'acme', name: 'Acme Analytics' },
      ],
    },
    images: {
      reference: 'absolute',
      directory: 'static/img/blog',
      urlPrefix: '/img/blog',
      format: 'png',
      source: { file: DOCUSAURUS_POST, line: 6 },
    },
    servedRoot: 'static',
    // routeBasePath '/', and the file name's date becomes part of the URL (no `slug` field);
    // Docusaurus's permalinks have no trailing slash by default.
    permalink: '/{year}/{month}/{day}/{slug}',
    excerptSeparator: '{/* truncate */}',
    notes: [],
  },
  eleventy: {
    toolchain: 'eleventy',
    toolchainSource: { file: 'eleventy.config.js' },
    // The folder under dir.input (line 11); Eleventy's `posts` collection is a tag set by
    // blog.11tydata.js, a data file the learner does not run.
    collection: {
      name: 'blog',
      directory: 'content/blog',
      source: { file: 'eleventy.config.js', line: 11 },
      alternatives: [],
    },
    fileName: '{slug}.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'nunjucks',
    fields: [
      field('title', 'title', 'string', true, ELEVENTY_POST, 2),
      field('description', 'description', 'string', false, ELEVENTY_POST, 3),
      field('date', 'date', 'date', true, ELEVENTY_POST, 4),
      field('tags', 'tags', 'string[]', false, ELEVENTY_POST, 5),
    ],
    vocabulary: { tags: ['another tag'], authors: [] },
    // Inkstream's default folder (no post shows an image); unused: the site has no cover field.
    images: {
      reference: 'absolute',
      directory: 'img',
      urlPrefix: '/img',
      format: 'png',
      source: { file: 'inkstream' },
    },
    servedRoot: null,
    permalink: '/blog/{slug}/',
    excerptSeparator: null,
    notes: [],
  },
};

const SITES = Object.keys(expected) as SiteName[];
const PNG = readFileSync(join(sitesRoot, 'astro/src/assets/blog-placeholder-1.png'));

describe('the learner on the fixture sites the real builds use', () => {
  test.each(SITES)('%s: the expected profile, every fact with its source', async (name) => {
    const { learned, failureReason } = await learnSite(name);
    expect(failureReason).toBeNull();
    expect(learned).toEqual(expected[name]);
  });

  test.each(SITES)('%s: the file written for it validates against it', async (name) => {
    const profile = (await learnSite(name)).learned!;
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

  test('the tree lists what a repository holds: no installed packages, build output or dot folders', () => {
    const folder = mkdtempSync(join(tmpdir(), 'inkstream-site-tree-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(folder, path)), { recursive: true });
        writeFileSync(join(folder, path), text);
      };
      write('blog/a.md', '---\ntitle: A\n---\n');
      write('node_modules/x/README.md', '# x');
      write('build/index.html', '<p>built</p>');
      write('.docusaurus/client.js', '');
      write('blog/build/kept.md', '---\ntitle: K\n---\n');
      symlinkSync('a.md', join(folder, 'blog/link.md'));
      const items = readSiteTree(folder, ['build']).items;
      expect(items.map((i) => `${i.type} ${i.path}`)).toEqual([
        'tree blog',
        'blob blog/a.md',
        'tree blog/build',
        'blob blog/build/kept.md',
        'symlink blog/link.md',
      ]);
      // The blob's sha is git's (`git hash-object`), as GitHub lists it.
      expect(items[1]).toMatchObject({
        sha: 'ccb556f1c0ef0234bb8b28ec2079b734836eb2cd',
        size: 17,
        mode: '100644',
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

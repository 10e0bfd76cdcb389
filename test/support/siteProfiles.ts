import type { FieldRule, LearnedProfile } from '../../src/domain/integrations/contentProfile.ts';
import { buildMdx } from '../../src/mdx/mdx.ts';
import { neutraliseMdx } from '../../src/mdx/neutralise.ts';

/**
 * Fixed profiles of the fixture sites' kinds, written by hand: the renderer's and the publisher's
 * tests use them as input (including shapes the learner does not produce, such as a date written
 * as `MMM DD YYYY` text), so they do not change when the learner does. What the learner makes of
 * each fixture site is tested in test/features/publishing/profile/fixtureSites.unit.test.ts, and
 * the real builds render with that.
 */

const field = (
  role: FieldRule['role'],
  name: string,
  type: FieldRule['type'],
  required: boolean,
  file: string,
  line: number,
  extra: Partial<FieldRule> = {},
): FieldRule => ({ role, name, type, required, source: { file, line }, ...extra });

const base = {
  toolchainSource: null,
  vocabulary: { tags: [], authors: [] },
  servedRoot: null,
  permalink: null,
  excerptSeparator: null,
  notes: [],
} satisfies Partial<LearnedProfile>;

const ASTRO_SCHEMA = 'src/content.config.ts';

/** Astro's blog template: `pubDate` a date as text (`Jul 08 2022`), `heroImage: image()` relative to the post under `src/assets`. */
export const astroProfile: LearnedProfile = {
  ...base,
  toolchain: 'astro',
  toolchainSource: { file: 'astro.config.mjs' },
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
    field('date', 'pubDate', 'string', true, ASTRO_SCHEMA, 14, { format: 'MMM DD YYYY' }),
    field('updated', 'updatedDate', 'string', false, ASTRO_SCHEMA, 15, { format: 'MMM DD YYYY' }),
    field('cover', 'heroImage', 'image', false, ASTRO_SCHEMA, 16),
  ],
  images: {
    directory: 'src/assets/blog',
    reference: 'relative',
    urlPrefix: '',
    format: 'png',
    source: { file: 'src/content/blog/first-post.md', line: 5 },
  },
  servedRoot: 'public',
  permalink: '/blog/{slug}/',
};

const HUGO_POST = 'content/posts/first-post/index.md';

/** Hugo with TOML frontmatter, a page bundle per post and PaperMod's `cover: { image, alt }`. */
export const hugoProfile: LearnedProfile = {
  ...base,
  toolchain: 'hugo',
  toolchainSource: { file: 'hugo.toml' },
  collection: {
    name: 'posts',
    directory: 'content/posts',
    source: { file: HUGO_POST },
    alternatives: [],
  },
  fileName: '{slug}/index.md',
  extension: 'md',
  frontmatterFormat: 'toml',
  templateEngine: 'hugo',
  fields: [
    field('title', 'title', 'string', true, 'archetypes/default.md', 2),
    field('date', 'date', 'datetime', true, 'archetypes/default.md', 3),
    field('draft', 'draft', 'boolean', false, 'archetypes/default.md', 4),
    field('description', 'description', 'string', false, HUGO_POST, 5),
    field('tags', 'tags', 'string[]', false, HUGO_POST, 6),
    field('cover', 'cover', 'object', false, HUGO_POST, 7, { format: '{ image, alt }' }),
  ],
  vocabulary: { tags: ['hugo', 'SEO'], authors: [] },
  images: {
    directory: 'content/posts',
    reference: 'bundle',
    urlPrefix: '',
    format: 'png',
    source: { file: HUGO_POST, line: 7 },
  },
  servedRoot: 'static',
  permalink: '/posts/{slug}/',
};

/** Docusaurus's classic blog: authors and tags as keys of `authors.yml`/`tags.yml`, a truncate marker, MDX. */
export const docusaurusProfile: LearnedProfile = {
  ...base,
  toolchain: 'docusaurus',
  toolchainSource: { file: 'docusaurus.config.js' },
  collection: {
    name: 'blog',
    directory: 'blog',
    source: { file: 'docusaurus.config.js', line: 22 },
    alternatives: [],
  },
  fileName: '{date}-{slug}.md',
  extension: 'md',
  frontmatterFormat: 'yaml',
  templateEngine: 'mdx',
  fields: [
    field('title', 'title', 'string', true, 'blog/2024-03-01-welcome.md', 2),
    field('description', 'description', 'string', false, 'blog/2024-03-01-welcome.md', 3),
    field('authors', 'authors', 'reference[]', false, 'docusaurus.config.js', 26),
    field('tags', 'tags', 'reference[]', false, 'docusaurus.config.js', 27),
    field('cover', 'image', 'image', false, 'blog/2024-03-01-welcome.md', 6),
  ],
  vocabulary: {
    tags: ['seo', 'analytics'],
    authors: [
      { key: 'jane', name: 'Jane Doe' },
      { key: 'acme', name: 'Acme Analytics' },
    ],
  },
  images: {
    directory: 'static/img/blog',
    reference: 'absolute',
    urlPrefix: '/img/blog',
    format: 'png',
    source: { file: 'blog/2024-03-01-welcome.md', line: 6 },
  },
  servedRoot: 'static',
  permalink: '/{year}/{month}/{day}/{slug}/',
  excerptSeparator: '{/* truncate */}',
};

/** Eleventy's base blog: Markdown run through Nunjucks, a YAML date, tags as free text. */
export const eleventyProfile: LearnedProfile = {
  ...base,
  toolchain: 'eleventy',
  toolchainSource: { file: 'eleventy.config.js' },
  collection: {
    name: 'posts',
    directory: 'content/blog',
    source: { file: 'content/blog/blog.11tydata.js', line: 2 },
    alternatives: [],
  },
  fileName: '{slug}.md',
  extension: 'md',
  frontmatterFormat: 'yaml',
  templateEngine: 'nunjucks',
  fields: [
    field('title', 'title', 'string', true, 'content/blog/firstpost.md', 2),
    field('description', 'description', 'string', false, 'content/blog/firstpost.md', 3),
    field('date', 'date', 'date', false, 'content/blog/firstpost.md', 4),
    field('tags', 'tags', 'string[]', false, 'content/blog/firstpost.md', 5),
  ],
  vocabulary: { tags: ['another tag'], authors: [] },
  images: null,
  permalink: '/blog/{slug}/',
};

/**
 * What a model might write to make a site run code at build time, one payload per engine: Nunjucks
 * (code that writes a file), Liquid, Hugo shortcodes, MDX expressions and ESM. The pipeline keeps
 * it as text (neutraliseMdx), as it does a real draft.
 */
export const HOSTILE_BODY = [
  "Measuring what matters starts with a question. {{ range.constructor(\"return process.getBuiltinModule('fs').writeFileSync('PWNED-nunjucks.txt', 'x')\")() }} stays text.",
  '',
  '## Template engines',
  '',
  'A Liquid tag {% include "secret.txt" %} and a comment {# hidden #} stay text.',
  '',
  'Hugo shortcodes {{< hostile >}} and {{% hostile %}} stay text.',
  '',
  'An MDX expression {process.exit(1)} stays text.',
  '',
  "import fs from 'node:fs'",
  '',
  '```js',
  'const x = "{{ range.constructor(\'return 7*7\')() }} {% raw %}";',
  '```',
  '',
  'Inline `{{< hostile >}}` code, and a [link](https://example.com/{{x}}).',
].join('\n');

/** The payloads as a reader must see them on the built page. */
export const HOSTILE_SHOWN = [
  "{{ range.constructor(\"return process.getBuiltinModule('fs').writeFileSync('PWNED-nunjucks.txt', 'x')\")() }}",
  '{% include "secret.txt" %}',
  '{# hidden #}',
  '{{< hostile >}}',
  '{{% hostile %}}',
  '{process.exit(1)}',
  "import fs from 'node:fs'",
];

/** An article's canonical text as the pipeline builds it: Inkstream's frontmatter and an inert body. */
export function canonicalArticle(input: {
  slug: string;
  title: string;
  date?: string;
  tags?: string[];
  author?: string;
  body?: string;
}): string {
  return buildMdx(
    {
      title: input.title,
      description: 'How to measure what matters, {{ without }} running anything.',
      slug: input.slug,
      date: input.date ?? '2026-11-20',
      keyword: 'measure what matters',
      tags: input.tags ?? ['SEO', 'content strategy'],
      cover: `/images/covers/${input.slug}.png`,
      author: input.author ?? 'Acme Analytics',
      brand: 'Acme Analytics',
      generator: { provider: 'openai', model: 'test-model' },
    },
    neutraliseMdx(input.body ?? HOSTILE_BODY, null).text,
  );
}

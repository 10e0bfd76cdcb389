import { describe, expect, test } from 'vitest';
import { slugOfPath } from '../../../src/domain/articles/article.ts';
import type {
  FieldRule,
  LearnedProfile,
  TemplateEngine,
} from '../../../src/domain/integrations/contentProfile.ts';
import { articlePath, mdxFor } from '../../../src/features/publishing/legacyFile.ts';
import {
  engineDelimiterIn,
  siteGateProblem,
} from '../../../src/features/publishing/site/inertForEngine.ts';
import { renderForSite } from '../../../src/features/publishing/site/renderForSite.ts';
import { validateForSite } from '../../../src/features/publishing/site/validateForSite.ts';
import { parseMdxTree } from '../../../src/mdx/mdxSyntax.ts';
import { mdxCodeOf } from '../../../src/mdx/mdxCode.ts';
import {
  astroProfile,
  canonicalArticle,
  docusaurusProfile,
  eleventyProfile,
  hugoProfile,
} from '../../support/siteProfiles.ts';

const SETTINGS = { contentDirectory: 'content/blog', coverDirectory: 'public/images/covers' };
const PNG = Buffer.from('png bytes');
const SLUG = 'measure-what-matters';
const HOSTILE_TITLE = 'Measure {{ range.constructor("return 1")() }} {% now %} {# c #} {{< sc >}}';

const render = (
  profile: LearnedProfile | null,
  mdx = canonicalArticle({ slug: SLUG, title: HOSTILE_TITLE }),
) => renderForSite({ mdx, slug: SLUG, cover: PNG, settings: SETTINGS }, profile);

const withEngine = (engine: TemplateEngine): LearnedProfile => ({
  ...eleventyProfile,
  templateEngine: engine,
});

describe('hostile text is inert for the site’s template engine', () => {
  test.each(['nunjucks', 'liquid', 'hugo'] as const)(
    '%s: no delimiter the engine evaluates anywhere in the file, frontmatter included',
    (engine) => {
      const { post, problems } = render(withEngine(engine));
      expect(problems).toEqual([]);
      expect(engineDelimiterIn(post!.content, engine)).toBeNull();
      expect(siteGateProblem(post!, engine, null, null)).toBeNull();
    },
  );

  test('Nunjucks: a stray end of comment (`#}`), which fails its build, is broken too', () => {
    const mdx = canonicalArticle({
      slug: SLUG,
      title: 'Tags #}',
      body: 'A stray #} in text, and `#}` in code.',
    });
    const { post } = render(withEngine('nunjucks'), mdx);
    expect(post!.content).not.toMatch(/#\}/);
  });

  test('MDX: the body holds no expression, JSX or ESM once parsed, and the gate passes', () => {
    const { post } = render(docusaurusProfile);
    expect(mdxCodeOf(parseMdxTree(post!.body.replace('{/* truncate */}', '')), post!.body)).toEqual(
      [],
    );
    expect(siteGateProblem(post!, 'mdx', docusaurusProfile.excerptSeparator, null)).toBeNull();
  });

  test('the gate refuses a file that still carries a delimiter, whatever wrote it', () => {
    const content = '---\ntitle: "x"\n---\n\nHello {% include "x" %}\n';
    const file = { content, frontmatter: '', body: 'Hello {% include "x" %}\n' };
    expect(siteGateProblem(file, 'nunjucks', null, null)).toMatch(/would carry "\{% include/);
    expect(siteGateProblem(file, 'liquid', null, null)).toMatch(/liquid templates would run/);
    expect(siteGateProblem({ ...file, body: 'Hi {process.exit(1)}\n' }, 'mdx', null, null)).toMatch(
      /would add an expression/,
    );
  });

  test('a summary separator learned from a repository is written only when it is one Inkstream knows', () => {
    const { problems, post } = render({
      ...docusaurusProfile,
      excerptSeparator: '{{ range.constructor("x")() }}',
    });
    expect(problems.map((problem) => problem.message).join(' ')).toMatch(
      /summary separator .* is not one Inkstream writes/,
    );
    expect(post!.content).not.toContain('range.constructor("x")');
  });

  test('a title cannot end the frontmatter block or add a key', () => {
    const mdx = canonicalArticle({ slug: SLUG, title: 'Title\n---\ndraft: true\n+++\nx = 1' });
    for (const profile of [astroProfile, hugoProfile]) {
      const { post } = render(profile, mdx);
      expect(validateForSite(post!, profile, [])).toEqual([]);
      expect(post!.frontmatter.split('\n').filter((line) => /^(draft|x)\b/.test(line))).toEqual(
        profile === hugoProfile ? ['draft = false'] : [],
      );
    }
  });

  test('a file name or folder that leaves the repository is refused, nothing is rendered', () => {
    for (const profile of [
      { ...astroProfile, fileName: '../../{slug}.md' },
      { ...astroProfile, collection: { ...astroProfile.collection, directory: '/etc' } },
      { ...astroProfile, fileName: '{slug}-{author}.md' },
    ]) {
      const { files, problems } = render(profile);
      expect(files).toEqual([]);
      expect(problems).toHaveLength(1);
    }
    const images = render({
      ...astroProfile,
      images: { ...astroProfile.images!, directory: '../outside' },
    });
    expect(images.problems[0].message).toMatch(/image folder "..\/outside" is not a plain path/);
    expect(images.files.map((file) => file.path)).toEqual([
      'src/content/blog/measure-what-matters.md',
    ]);
  });
});

describe('the file each site gets', () => {
  test('a legacy connection (no profile) gets exactly the fixed file and path of before', () => {
    const mdx = canonicalArticle({ slug: 'old-slug', title: 'Old' });
    const { files, problems } = renderForSite(
      { mdx, slug: SLUG, cover: PNG, settings: SETTINGS },
      null,
    );
    expect(problems).toEqual([]);
    expect(files).toEqual([
      { path: articlePath(SETTINGS, SLUG), content: mdxFor(mdx, SLUG) },
      { path: `public/images/covers/${SLUG}.png`, content: PNG },
    ]);
  });

  test("Astro: pubDate as the site's posts write it, heroImage relative to the post under src/assets", () => {
    const { files, post } = render(astroProfile);
    expect(files.map((file) => file.path)).toEqual([
      'src/content/blog/measure-what-matters.md',
      'src/assets/blog/measure-what-matters.png',
    ]);
    expect(post!.frontmatter).toContain('\npubDate: "Nov 20 2026"\n');
    expect(post!.frontmatter).toContain(
      '\nheroImage: "../../assets/blog/measure-what-matters.png"\n',
    );
    expect(post!.frontmatter).not.toMatch(/updatedDate|slug|keyword|generator/);
  });

  test('Hugo: TOML, a datetime, draft = false, a page bundle with cover = { image, alt }', () => {
    const { files, post } = render(hugoProfile);
    expect(files.map((file) => file.path)).toEqual([
      'content/posts/measure-what-matters/index.md',
      'content/posts/measure-what-matters/cover.png',
    ]);
    expect(post!.frontmatter).toMatch(/^\+\+\+\n/);
    expect(post!.frontmatter).toContain('\ndate = 2026-11-20T00:00:00Z\n');
    expect(post!.frontmatter).toContain('\ndraft = false\n');
    expect(post!.frontmatter).toMatch(/\ncover = \{ image = "cover.png", alt = "Measure /);
    // The site's spelling of a tag it already has comes first.
    expect(post!.frontmatter).toContain('\ntags = ["SEO", "content strategy"]\n');
  });

  test('Docusaurus: date-prefixed name, authors and tags only as keys of its files, cover under static/, truncate after the introduction', () => {
    const { files, post } = render(docusaurusProfile);
    expect(files.map((file) => file.path)).toEqual([
      'blog/2026-11-20-measure-what-matters.md',
      'static/img/blog/measure-what-matters.png',
    ]);
    expect(post!.frontmatter).toContain('\nauthors: ["acme"]\n');
    expect(post!.frontmatter).toContain('\ntags: ["seo"]\n'); // "content strategy" is not in tags.yml
    expect(post!.frontmatter).toContain('\nimage: "/img/blog/measure-what-matters.png"\n');
    const [introduction, rest] = post!.body.split('\n\n{/* truncate */}\n\n');
    expect(introduction).toMatch(/^Measuring what matters starts with a question\./);
    expect(rest).toMatch(/^## Template engines/);
  });

  test('Eleventy: a YAML date, no cover where the site shows none', () => {
    const { files, post } = render(eleventyProfile);
    expect(files.map((file) => file.path)).toEqual(['content/blog/measure-what-matters.md']);
    expect(post!.frontmatter).toContain('\ndate: 2026-11-20\n');
  });

  test('JSON frontmatter: an object first, dates as text', () => {
    const profile: LearnedProfile = { ...hugoProfile, frontmatterFormat: 'json' };
    const { post } = render(profile);
    expect(JSON.parse(post!.frontmatter)).toMatchObject({
      date: '2026-11-20T00:00:00Z',
      draft: false,
    });
    expect(validateForSite(post!, profile, [])).toEqual([]);
  });

  test('a required field Inkstream has nothing for is a problem naming the file and line that require it', () => {
    const rule: FieldRule = {
      role: null,
      name: 'heroAuthor',
      type: 'string',
      required: true,
      source: { file: 'src/content.config.ts', line: 9 },
    };
    const { problems } = render({ ...astroProfile, fields: [...astroProfile.fields, rule] });
    expect(problems.map((problem) => problem.message)).toEqual([
      '`heroAuthor` is required (a field Inkstream has nothing for) by `src/content.config.ts` line 9',
    ]);
  });

  test('required authors that match no key of the authors file are a problem, not a made-up key', () => {
    const profile: LearnedProfile = {
      ...docusaurusProfile,
      fields: docusaurusProfile.fields.map((rule) =>
        rule.role === 'authors' ? { ...rule, required: true } : rule,
      ),
    };
    const mdx = canonicalArticle({ slug: SLUG, title: 'T', author: 'Somebody Else' });
    expect(render(profile, mdx).problems[0].message).toBe(
      '`authors` is required by `docusaurus.config.js` line 26',
    );
  });
});

describe('validateForSite', () => {
  const post = (frontmatter: string, body = 'Text.\n') => ({
    path: 'src/content/blog/x.md',
    content: `---\n${frontmatter}\n---\n\n${body}`,
  });

  test('a missing required field names the field and the file and line that require it', () => {
    expect(
      validateForSite(post('title: "T"\ndescription: "D"'), astroProfile).map((p) => p.message),
    ).toEqual(['`pubDate` is required by `src/content.config.ts` line 14']);
  });

  test('types and formats: a date as text in the wrong format, a list where a text is expected', () => {
    const messages = validateForSite(
      post('title: ["T"]\ndescription: "D"\npubDate: "2026-11-20"'),
      astroProfile,
    ).map((p) => p.message);
    expect(messages).toEqual([
      '`title` must be a text, as declared by `src/content.config.ts` line 11',
      '`pubDate` must be a date written as "MMM DD YYYY", as declared by `src/content.config.ts` line 14',
    ]);
  });

  test('a YAML date where a datetime is wanted passes; a quoted date where a YAML date is wanted does not', () => {
    const eleventy = (date: string) => ({
      path: 'content/blog/x.md',
      content: `---\ntitle: "T"\ndate: ${date}\n---\n\nText.\n`,
    });
    expect(validateForSite(eleventy('2026-11-20'), eleventyProfile)).toEqual([]);
    expect(validateForSite(eleventy('"2026-11-20"'), eleventyProfile)[0].expected).toBe(
      'a date (YYYY-MM-DD)',
    );
  });

  test('enum values, unknown tag keys, and a cover that points at no committed file', () => {
    const profile: LearnedProfile = {
      ...docusaurusProfile,
      fields: [
        ...docusaurusProfile.fields,
        {
          role: null,
          name: 'kind',
          type: 'string',
          required: false,
          values: ['post', 'note'],
          source: { file: 'schema.ts', line: 3 },
        },
      ],
    };
    const messages = validateForSite(
      {
        path: 'blog/x.md',
        content:
          '---\ntitle: "T"\ntags: ["seo", "nope"]\nimage: "./missing.png"\nkind: "essay"\n---\n\nText.\n',
      },
      profile,
      ['blog/x.md'],
    ).map((p) => p.message);
    expect(messages).toEqual([
      '`tags` must be keys the site defines (not nope), as declared by `docusaurus.config.js` line 27',
      '`image` points at blog/missing.png, which is not committed, but an image is expected by `blog/2024-03-01-welcome.md` line 6',
      '`kind` must be one of post, note, as declared by `schema.ts` line 3',
    ]);
  });

  test('the extension’s syntax: raw HTML in a .md file for a site without MDX, text MDX cannot parse for an MDX site', () => {
    expect(
      validateForSite(
        post('title: "T"\ndescription: "D"\npubDate: "Nov 20 2026"', '<script>alert(1)</script>\n'),
        astroProfile,
      )[0].message,
    ).toMatch(/would carry raw HTML/);
    expect(
      validateForSite(
        { path: 'blog/x.md', content: '---\ntitle: "T"\n---\n\nA <b broken\n' },
        docusaurusProfile,
      )[0].message,
    ).toMatch(/is not valid MDX/);
  });
});

test('a hand-shaped body MDX cannot parse is written with its raw HTML as text, for any engine', () => {
  const mdx = `---\ntitle: "T"\ndescription: "D"\nslug: "${SLUG}"\ndate: "2026-11-20"\nkeyword: ""\ntags: []\nauthor: "A"\ngenerator: { provider: "offline", model: "none" }\n---\n\nA <b broken tag and <script>alert(1)</script> inline.\n\n<div>block {{ x }}</div>\n`;
  for (const profile of [astroProfile, eleventyProfile, docusaurusProfile]) {
    const { post, problems } = render(profile, mdx);
    expect(problems).toEqual([]);
    expect(validateForSite(post!, profile, [])).toEqual([]);
    expect(
      siteGateProblem(post!, profile.templateEngine, profile.excerptSeparator, null),
    ).toBeNull();
  }
});

test('the slug read from a path: a folder per post gives the folder, not "index"', () => {
  expect(slugOfPath('content/posts/x/index.md')).toBe('x');
  expect(slugOfPath('content/blog/sourdough.mdx')).toBe('sourdough');
  expect(slugOfPath('src/content/blog/rye.md')).toBe('rye');
});

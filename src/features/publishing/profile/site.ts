import type {
  FactSource,
  TemplateEngine,
  Toolchain,
} from '../../../domain/integrations/contentProfile.ts';
import type { TreeItem } from '../../../integrations/github/port.ts';
import {
  args,
  astroSchemaFields,
  findCalls,
  findProperties,
  type JsModule,
  type Node,
  objectSchemaFields,
  parseModule,
  property,
  propertyLine,
  resolve,
  returnedObject,
  type SchemaField,
  staticValue,
  UNKNOWN,
} from './jsConfig.ts';
import type { Parsers } from './parsers.ts';

/**
 * What a repository's config files say about its site: the toolchain, its candidate collections
 * of posts, and the rules the toolchain imposes (extensions it reads, the engine it runs over
 * Markdown, where it serves files from, the URL of a post). Pure: it sees the tree listing and the
 * text of the config files already read, and runs none of them.
 */

export type Extension = 'md' | 'mdx' | 'markdown';

export type Candidate = {
  name: string | null;
  directory: string;
  source: FactSource;
  schema?: SchemaField[];
  schemaFile?: string;
  /** The extensions this collection's loader reads; undefined: any Markdown. */
  extensions?: Extension[];
  mdx?: boolean;
  permalink?: string | null;
};

export type Site = {
  toolchain: Toolchain;
  toolchainSource: FactSource | null;
  candidates: Candidate[];
  /** The engine by toolchain; null: decided by the post's extension (`.mdx` → mdx). */
  engine: TemplateEngine | null;
  engineSource: FactSource | null;
  permalink: string | null;
  servedRoot: string | null;
  excerptSeparator: string | null;
  /** Files of the site's authors and tags (read for the vocabulary). */
  vocabularyFiles: string[];
  /** Hugo archetypes: a post's frontmatter when the site has no posts yet. */
  archetypes: string[];
  /** A fixed file name the toolchain requires (Jekyll's `{date}-{slug}`). */
  fileNameRule: string | null;
  notes: string[];
  /**
   * Roles whose values must be keys of a file the toolchain reads (Docusaurus's `authors.yml`,
   * `tags.yml`), with the config line (or the file) that says so.
   */
  references: Partial<Record<'authors' | 'tags', FactSource>>;
  /** The repository paths of those files (read for the vocabulary whatever their name). */
  keyFiles: Partial<Record<'authors' | 'tags', string>>;
};

export const MARKDOWN = /\.(md|mdx|markdown)$/i;
const IGNORED_DIRS =
  /(^|\/)(node_modules|\.[^/]+|vendor|dist|build|_site|public|static|resources)\//;
const NOT_POSTS =
  /(^|\/)(README|CHANGELOG|LICENSE|CONTRIBUTING|CODE_OF_CONDUCT|SECURITY)\.(md|mdx|markdown)$/i;
const BLOG_NAMES = /^(blog|posts?|articles?|news|writing|_posts|journal|notes)$/i;

/** The config files the learner reads first, in the order they are looked for. */
export const CONFIG_FILES = [
  'package.json',
  'src/content.config.ts',
  'src/content.config.mts',
  'src/content.config.js',
  'src/content.config.mjs',
  'src/content/config.ts',
  'src/content/config.mts',
  'src/content/config.js',
  'src/content/config.mjs',
  'astro.config.mjs',
  'astro.config.ts',
  'astro.config.js',
  'hugo.toml',
  'hugo.yaml',
  'hugo.yml',
  'hugo.json',
  'config.toml',
  'config.yaml',
  'config.yml',
  'config/_default/hugo.toml',
  'config/_default/config.toml',
  'config/_default/hugo.yaml',
  'docusaurus.config.ts',
  'docusaurus.config.js',
  'docusaurus.config.mjs',
  '_config.yml',
  '_config.yaml',
  'eleventy.config.js',
  'eleventy.config.mjs',
  'eleventy.config.cjs',
  'eleventy.config.ts',
  '.eleventy.js',
  'contentlayer.config.ts',
  'contentlayer.config.js',
  'contentlayer.config.mjs',
  'velite.config.ts',
  'velite.config.js',
  'velite.config.mjs',
  'gatsby-config.js',
  'gatsby-config.ts',
  'gatsby-config.mjs',
  'theme.config.tsx',
  'theme.config.jsx',
  'next.config.js',
  'next.config.mjs',
  'next.config.ts',
];

const extOf = (path: string) => (/\.([^./]+)$/.exec(path)?.[1] ?? '').toLowerCase();

/**
 * A directory a config names, relative to the repository root; null when it leaves the repository
 * (an absolute path or `..`), which is refused.
 */
export function safeDirectory(raw: string): string | null {
  if (/^([a-z]:)?[\\/]/i.test(raw) || raw.startsWith('~')) return null;
  const parts: string[] = [];
  for (const part of raw.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    parts.push(part);
  }
  return parts.join('/');
}

const join = (...parts: string[]) => parts.filter((p) => p !== '' && p !== '.').join('/');

/** The literal folder a glob pattern starts with: `blog/**\/*.mdx` → `blog`. */
export function globPrefix(pattern: string): string {
  const parts = pattern.split('/');
  const fixed: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (/[*?[\]{}!]/.test(part)) break;
    fixed.push(part);
  }
  return fixed.join('/');
}

/** The Markdown extensions a glob pattern accepts: `**\/*.{md,mdx}` → md, mdx. */
export function globExtensions(pattern: string): Extension[] | undefined {
  const last = pattern.split('/').pop() ?? '';
  const braces = /\.\{([^}]+)\}$/.exec(last);
  const list = braces ? braces[1].split(',') : [/\.([a-z]+)$/i.exec(last)?.[1] ?? ''];
  const found = list
    .map((e) => e.trim().toLowerCase())
    .filter((e): e is Extension => ['md', 'mdx', 'markdown'].includes(e));
  return found.length ? found : undefined;
}

export type Posts = { directory: string; paths: string[] };

/** Markdown files of the tree that can be posts: blobs (never symlinks), outside tooling folders. */
export function markdownPaths(items: TreeItem[]): string[] {
  return items
    .filter(
      (i) =>
        i.type === 'blob' &&
        MARKDOWN.test(i.path) &&
        !IGNORED_DIRS.test(i.path) &&
        !NOT_POSTS.test(i.path),
    )
    .map((i) => i.path);
}

/** The posts of a collection folder: its Markdown files, without section pages (`_index.md`, `_draft.md`). */
export function postsIn(markdown: string[], directory: string, extensions?: Extension[]): string[] {
  const prefix = directory ? `${directory}/` : '';
  return markdown.filter((path) => {
    if (!path.startsWith(prefix)) return false;
    const name = path.split('/').pop() ?? '';
    if (name.startsWith('_')) return false;
    if (!directory && !path.includes('/') && /^index\./i.test(name)) return false;
    return !extensions || extensions.includes(extOf(path) as Extension);
  });
}

/** The folders directly under `root` holding Markdown, as candidates, the most blog-like first. */
function markdownFolders(markdown: string[], root: string, source: FactSource): Candidate[] {
  const counts = new Map<string, number>();
  const prefix = root ? `${root}/` : '';
  for (const path of markdown) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length).split('/');
    if (rest.length < 2) continue;
    const folder = join(root, rest[0]);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return rankCandidates(
    [...counts.keys()].map((directory) => ({
      name: directory.split('/').pop() ?? null,
      directory,
      source,
    })),
    markdown,
  );
}

/** Blog-like names first, then the folder with the most posts. */
export function rankCandidates(candidates: Candidate[], markdown: string[]): Candidate[] {
  const score = (c: Candidate) =>
    (BLOG_NAMES.test(c.name ?? '') || BLOG_NAMES.test(c.directory.split('/').pop() ?? '')
      ? 1_000_000
      : 0) + postsIn(markdown, c.directory, c.extensions).length;
  return [...candidates].sort((a, b) => score(b) - score(a));
}

/** `src/pages/blog/[...slug].astro` → `/blog/{slug}/` (Astro), `app/blog/[...slug]/page.tsx` → `/blog/{slug}` (Next.js). */
function routePermalink(
  items: TreeItem[],
  roots: string[],
  trailingSlash: boolean,
  near: string[],
): { permalink: string; file: string } | null {
  const routes: { permalink: string; file: string }[] = [];
  for (const item of items) {
    if (item.type !== 'blob') continue;
    const root = roots.find((r) => item.path.startsWith(`${r}/`));
    if (!root) continue;
    const rest = item.path.slice(root.length + 1).split('/');
    const slugAt = rest.findIndex((part) => /^\[(\.\.\.)?slug\]/.test(part));
    if (slugAt < 0) continue;
    const base = rest.slice(0, slugAt);
    if (base.some((part) => part.includes('['))) continue;
    const permalink = `/${[...base, '{slug}'].join('/')}${trailingSlash ? '/' : ''}`;
    routes.push({ permalink, file: item.path });
  }
  const preferred = routes.find((r) => near.some((name) => r.permalink.startsWith(`/${name}/`)));
  return (
    preferred ??
    routes.find((r) => BLOG_NAMES.test(r.permalink.split('/')[1] ?? '')) ??
    routes[0] ??
    null
  );
}

type Files = Map<string, string>;

function readData(path: string, text: string, parsers: Parsers): Record<string, unknown> | null {
  try {
    const ext = extOf(path);
    const data =
      ext === 'toml'
        ? parsers.TOML.parse(text)
        : ext === 'json'
          ? JSON.parse(text)
          : parsers.YAML.parse(text, { schema: 'core', maxAliasCount: 50 });
    return data && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const present = (items: Set<string>, paths: string[]) => paths.find((p) => items.has(p)) ?? null;

function dependencies(files: Files): Set<string> {
  const text = files.get('package.json');
  if (!text) return new Set();
  try {
    const pkg = JSON.parse(text) as Record<string, Record<string, string> | undefined>;
    return new Set([
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.devDependencies ?? {}),
    ]);
  } catch {
    return new Set();
  }
}

function emptySite(toolchain: Toolchain, source: FactSource | null): Site {
  return {
    toolchain,
    toolchainSource: source,
    candidates: [],
    engine: null,
    engineSource: null,
    permalink: null,
    servedRoot: null,
    excerptSeparator: null,
    vocabularyFiles: [],
    archetypes: [],
    fileNameRule: null,
    notes: [],
    references: {},
    keyFiles: {},
  };
}

function moduleOf(path: string, files: Files, parsers: Parsers, notes: string[]): JsModule | null {
  const text = files.get(path);
  if (text === undefined) return null;
  const parsed = parseModule(text, path, parsers);
  if ('error' in parsed) {
    notes.push(`${parsed.error}; what it configures was not learned.`);
    return null;
  }
  return parsed;
}

/** A directory from a config: kept when inside the repository, else refused with a note. */
function directoryFrom(value: unknown, file: string, what: string, notes: string[]): string | null {
  if (typeof value !== 'string') return null;
  const safe = safeDirectory(value);
  if (safe === null)
    notes.push(
      `${file} points ${what} at ${JSON.stringify(value)}, outside the repository; it was refused.`,
    );
  return safe;
}

export function detectSite(items: TreeItem[], files: Files, parsers: Parsers): Site {
  const paths = new Set(items.filter((i) => i.type === 'blob').map((i) => i.path));
  const markdown = markdownPaths(items);
  const deps = dependencies(files);
  const has = (list: string[]) => present(paths, list);

  const astroConfig = has([
    'src/content.config.ts',
    'src/content.config.mts',
    'src/content.config.js',
    'src/content.config.mjs',
    'src/content/config.ts',
    'src/content/config.mts',
    'src/content/config.js',
    'src/content/config.mjs',
  ]);
  if (
    astroConfig ||
    has(['astro.config.mjs', 'astro.config.ts', 'astro.config.js']) ||
    deps.has('astro')
  )
    return astro(items, files, parsers, markdown, astroConfig, deps);
  const docusaurusConfig = has([
    'docusaurus.config.ts',
    'docusaurus.config.js',
    'docusaurus.config.mjs',
  ]);
  if (docusaurusConfig) return docusaurus(items, files, parsers, markdown, docusaurusConfig);
  const hugoConfig =
    has([
      'hugo.toml',
      'hugo.yaml',
      'hugo.yml',
      'hugo.json',
      'config/_default/hugo.toml',
      'config/_default/hugo.yaml',
    ]) ??
    (items.some((i) => /^(archetypes|layouts|themes)\//.test(i.path))
      ? has(['config.toml', 'config.yaml', 'config.yml', 'config/_default/config.toml'])
      : null);
  if (hugoConfig) return hugo(items, files, parsers, markdown, hugoConfig);
  const jekyllConfig = has(['_config.yml', '_config.yaml']);
  if (jekyllConfig || markdown.some((p) => p.startsWith('_posts/')))
    return jekyll(items, files, parsers, markdown, jekyllConfig);
  const eleventyConfig = has([
    'eleventy.config.js',
    'eleventy.config.mjs',
    'eleventy.config.cjs',
    'eleventy.config.ts',
    '.eleventy.js',
  ]);
  if (eleventyConfig || deps.has('@11ty/eleventy'))
    return eleventy(items, files, parsers, markdown, eleventyConfig);
  const gatsbyConfig = has(['gatsby-config.js', 'gatsby-config.ts', 'gatsby-config.mjs']);
  if (gatsbyConfig) return gatsby(files, parsers, markdown, gatsbyConfig);
  const contentlayer = has([
    'contentlayer.config.ts',
    'contentlayer.config.js',
    'contentlayer.config.mjs',
  ]);
  const velite = has(['velite.config.ts', 'velite.config.js', 'velite.config.mjs']);
  const nextra =
    has(['theme.config.tsx', 'theme.config.jsx']) ?? (deps.has('nextra') ? 'package.json' : null);
  const next =
    has(['next.config.js', 'next.config.mjs', 'next.config.ts']) ??
    (deps.has('next') ? 'package.json' : null);
  if (contentlayer || velite || nextra || next)
    return nextjs(items, files, parsers, markdown, { contentlayer, velite, nextra, next, deps });
  return plain(markdown);
}

function plain(markdown: string[]): Site {
  const site = emptySite('plain', null);
  const counts = new Map<string, number>();
  for (const path of markdown) {
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    // A folder-per-post file counts for the folder above it.
    const name = path.split('/').pop() ?? '';
    const key =
      /^index\./i.test(name) && folder.includes('/')
        ? folder.slice(0, folder.lastIndexOf('/'))
        : folder;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  site.candidates = rankCandidates(
    [...counts.keys()].map((directory) => ({
      name: directory.split('/').pop() || null,
      directory,
      source: { file: directory || '.' },
    })),
    markdown,
  );
  return site;
}

function astro(
  items: TreeItem[],
  files: Files,
  parsers: Parsers,
  markdown: string[],
  config: string | null,
  deps: Set<string>,
): Site {
  const site = emptySite('astro', { file: config ?? 'package.json' });
  site.servedRoot = 'public';
  const mdx = deps.has('@astrojs/mdx');
  const defaultExtensions: Extension[] = mdx ? ['md', 'mdx'] : ['md'];
  const mod = config ? moduleOf(config, files, parsers, site.notes) : null;
  if (mod) {
    const collections = mod.constants.get('collections');
    const object = collections ? resolve(collections, mod) : null;
    if (object?.type === 'ObjectExpression') {
      for (const p of (object.properties as Node[]) ?? []) {
        const name = p.type === 'ObjectProperty' ? propertyNameOf(p) : null;
        const value = p.type === 'ObjectProperty' ? (p.value as Node) : null;
        if (!name || !value) continue;
        const call = resolve(value, mod);
        const definition = call.type === 'CallExpression' ? args(call)[0] : null;
        const options = definition ? resolve(definition, mod) : null;
        if (options?.type !== 'ObjectExpression') continue;
        let line = options.loc?.start.line;
        const loader = property(options, 'loader');
        const loaderCall = loader ? resolve(loader, mod) : null;
        let directory: string | null = `src/content/${name}`;
        let extensions: Extension[] | undefined = defaultExtensions;
        if (loaderCall?.type === 'CallExpression') {
          const loaderName =
            (loaderCall.callee as Node).type === 'Identifier'
              ? String((loaderCall.callee as Node).name)
              : '';
          if (loaderName !== 'glob') continue; // file() and custom loaders hold data, not posts
          const loaderOptions = args(loaderCall)[0] ? resolve(args(loaderCall)[0], mod) : null;
          const base = staticValue(property(loaderOptions, 'base'), mod);
          const patternValue = staticValue(property(loaderOptions, 'pattern'), mod);
          // `pattern` may be a list: its extensions together, its common folder.
          const patterns = Array.isArray(patternValue) ? patternValue : [patternValue];
          const pattern = patterns.every((p) => typeof p === 'string')
            ? patterns.length === 1
              ? patterns[0]
              : `${globPrefix(patterns[0])}${globPrefix(patterns[0]) ? '/' : ''}**/*.{${patterns.flatMap((p) => globExtensions(p) ?? []).join(',')}}`
            : UNKNOWN;
          if (base === UNKNOWN || pattern === UNKNOWN) {
            site.notes.push(
              `${config} computes the folder of the ${name} collection; set the content directory.`,
            );
            continue;
          }
          // The folder is the loader's: its line is what says where the posts are.
          line = loaderCall.loc?.start.line ?? line;
          directory = directoryFrom(
            join(
              typeof base === 'string' ? base : '.',
              typeof pattern === 'string' ? globPrefix(pattern) : '',
            ),
            config as string,
            `the ${name} collection`,
            site.notes,
          );
          if (typeof pattern === 'string') {
            const read = globExtensions(pattern);
            // A loader that reads only data files (json, yaml) is not a collection of posts.
            if (!read && !/\*$/.test(pattern)) continue;
            extensions = read ?? defaultExtensions;
          }
        } else {
          const type = staticValue(property(options, 'type'), mod);
          if (type === 'data') continue;
        }
        if (directory === null) continue;
        const schemaNode = property(options, 'schema');
        const schema = schemaNode ? astroSchemaFields(schemaNode, mod) : null;
        site.candidates.push({
          name,
          directory,
          source: { file: config as string, line },
          extensions,
          ...(schema ? { schema, schemaFile: config as string } : {}),
        });
      }
    }
  }
  if (!site.candidates.length) {
    const fallback = markdownFolders(markdown, 'src/content', { file: config ?? 'src/content' });
    site.candidates = fallback.length
      ? fallback
      : markdownFolders(markdown, 'src', { file: 'src' });
  }
  site.candidates = rankCandidates(site.candidates, markdown);
  const names = site.candidates.map((c) => c.name ?? '').filter(Boolean);
  const route = routePermalink(items, ['src/pages'], true, names);
  site.permalink = route?.permalink ?? null;
  return site;
}

const propertyNameOf = (p: Node): string | null => {
  const key = p.key as Node;
  if (key?.type === 'Identifier') return String(key.name);
  if (key?.type === 'StringLiteral') return String(key.value);
  return null;
};

function docusaurus(
  items: TreeItem[],
  files: Files,
  parsers: Parsers,
  markdown: string[],
  config: string,
): Site {
  const site = emptySite('docusaurus', { file: config });
  site.servedRoot = 'static';
  site.engine = 'mdx';
  site.engineSource = { file: config };
  const mod = moduleOf(config, files, parsers, site.notes);
  let path = 'blog';
  let routeBasePath = 'blog';
  let line: number | undefined;
  // The blog plugin's defaults: `authors.yml` and `tags.yml` in the blog folder, read when present.
  const keyFiles: Record<'authors' | 'tags', { name: string; line?: number }> = {
    authors: { name: 'authors.yml' },
    tags: { name: 'tags.yml' },
  };
  if (mod) {
    for (const blog of findProperties(mod, 'blog')) {
      const value = staticValue(blog, mod);
      if (value === false) {
        site.notes.push(
          `${config} turns the blog off (blog: false); posts go to the folder set here.`,
        );
        continue;
      }
      const object = resolve(blog, mod);
      if (object.type !== 'ObjectExpression') continue;
      line = object.loc?.start.line;
      const p = staticValue(property(object, 'path'), mod);
      const r = staticValue(property(object, 'routeBasePath'), mod);
      for (const [role, option] of [
        ['authors', 'authorsMapPath'],
        ['tags', 'tags'],
      ] as const) {
        const value = staticValue(property(object, option), mod);
        const name = typeof value === 'string' ? safeDirectory(value) : null;
        if (name) keyFiles[role] = { name, line: propertyLine(object, option) };
      }
      const dir = directoryFrom(p, config, 'the blog', site.notes);
      if (dir) path = dir;
      if (typeof r === 'string') routeBasePath = r.replace(/^\/+|\/+$/g, '');
      break;
    }
    for (const markdownOptions of findProperties(mod, 'markdown')) {
      const format = staticValue(property(resolve(markdownOptions, mod), 'format'), mod);
      if (format === 'detect') site.engine = null; // .md is CommonMark, .mdx is MDX
    }
  }
  site.candidates = [{ name: 'blog', directory: path, source: { file: config, line } }];
  site.permalink = `/${routeBasePath ? `${routeBasePath}/` : ''}{slug}`;
  const set = new Set(items.filter((i) => i.type === 'blob').map((i) => i.path));
  for (const role of ['authors', 'tags'] as const) {
    const file = join(path, keyFiles[role].name);
    if (!set.has(file)) continue;
    site.keyFiles[role] = file;
    // Docusaurus checks a post's authors and tags against the file (onInline*: warn or throw).
    site.references[role] =
      keyFiles[role].line !== undefined ? { file: config, line: keyFiles[role].line } : { file };
  }
  site.vocabularyFiles = [
    join(path, keyFiles.authors.name),
    join(path, keyFiles.tags.name),
    `${path}/authors.yml`,
    `${path}/authors.yaml`,
    `${path}/authors.json`,
    `${path}/tags.yml`,
    `${path}/tags.yaml`,
  ];
  site.vocabularyFiles = [...new Set(site.vocabularyFiles)].filter((f) => set.has(f));
  void markdown;
  return site;
}

function hugoPermalink(pattern: string, section: string): string {
  return pattern
    .replace(/:year/g, '{year}')
    .replace(/:month/g, '{month}')
    .replace(/:day/g, '{day}')
    .replace(
      /:(slugorfilename|slugorcontentbasename|contentbasename|filename|slug|title)/g,
      '{slug}',
    )
    .replace(/:sections?(\[[^\]]*\])?/g, section);
}

function hugo(
  items: TreeItem[],
  files: Files,
  parsers: Parsers,
  markdown: string[],
  config: string,
): Site {
  const site = emptySite('hugo', { file: config });
  site.engine = 'hugo';
  site.engineSource = { file: config };
  site.servedRoot = 'static';
  const data = files.has(config) ? readData(config, files.get(config) as string, parsers) : null;
  if (files.has(config) && !data)
    site.notes.push(`${config} could not be read; Hugo's defaults were assumed.`);
  const contentDir =
    directoryFrom(data?.contentDir ?? 'content', config, 'contentDir', site.notes) ?? 'content';
  const params = (data?.params ?? {}) as Record<string, unknown>;
  const main = Array.isArray(params.mainSections) ? params.mainSections.map(String) : [];
  let candidates = markdownFolders(markdown, contentDir, { file: config });
  if (main.length)
    candidates = [
      ...candidates.filter((c) => main.includes(c.name ?? '')),
      ...candidates.filter((c) => !main.includes(c.name ?? '')),
    ];
  site.candidates = candidates.map((c) => ({
    ...c,
    // A section the config names comes from the config; any other from its folder in the tree.
    source: main.includes(c.name ?? '') ? c.source : { file: c.directory },
    extensions: ['md', 'markdown'] as Extension[],
  }));
  const section = site.candidates[0]?.name ?? 'posts';
  const permalinks = (data?.permalinks ?? {}) as Record<string, unknown>;
  const page = (permalinks.page ?? {}) as Record<string, unknown>;
  const pattern = page[section] ?? permalinks[section];
  site.permalink =
    typeof pattern === 'string' ? hugoPermalink(pattern, section) : `/${section}/{slug}/`;
  site.archetypes = [`archetypes/${section}.md`, 'archetypes/default.md'].filter((p) =>
    items.some((i) => i.path === p && i.type === 'blob'),
  );
  return site;
}

function jekyllPermalink(value: unknown): string {
  const styles: Record<string, string> = {
    date: '/{year}/{month}/{day}/{slug}.html',
    pretty: '/{year}/{month}/{day}/{slug}/',
    ordinal: '/{year}/{slug}.html',
    none: '/{slug}.html',
  };
  if (typeof value !== 'string') return styles.date;
  if (styles[value]) return styles[value];
  return value
    .replace(/\/:categories/g, '')
    .replace(/:year/g, '{year}')
    .replace(/:i_month|:month/g, '{month}')
    .replace(/:i_day|:day/g, '{day}')
    .replace(/:title|:slug/g, '{slug}')
    .replace(/:output_ext/g, '.html');
}

function jekyll(
  items: TreeItem[],
  files: Files,
  parsers: Parsers,
  markdown: string[],
  config: string | null,
): Site {
  const site = emptySite('jekyll', { file: config ?? '_posts' });
  site.engine = 'liquid';
  site.engineSource = { file: config ?? '_posts' };
  site.servedRoot = '.';
  const data =
    config && files.has(config) ? readData(config, files.get(config) as string, parsers) : null;
  site.permalink = jekyllPermalink(data?.permalink);
  if (typeof data?.excerpt_separator === 'string') site.excerptSeparator = data.excerpt_separator;
  site.candidates = [
    {
      name: 'posts',
      directory: '_posts',
      source: { file: config ?? '_posts' },
      extensions: ['md', 'markdown'],
    },
  ];
  site.fileNameRule = '{date}-{slug}';
  void items;
  void markdown;
  return site;
}

function eleventy(
  items: TreeItem[],
  files: Files,
  parsers: Parsers,
  markdown: string[],
  config: string | null,
): Site {
  const site = emptySite('eleventy', { file: config ?? 'package.json' });
  site.engine = 'liquid'; // Eleventy's default for Markdown
  site.engineSource = { file: config ?? 'package.json' };
  let input = '.';
  let inputLine: number | undefined;
  const mod = config ? moduleOf(config, files, parsers, site.notes) : null;
  if (mod && config) {
    const engineNodes = [
      ...findProperties(mod, 'markdownTemplateEngine'),
      ...findCalls(mod, 'setMarkdownTemplateEngine')
        .map((c) => args(c)[0])
        .filter(Boolean),
    ];
    for (const node of engineNodes) {
      const value = staticValue(node, mod);
      const engines: Record<string, 'nunjucks' | 'liquid' | 'none'> = {
        njk: 'nunjucks',
        liquid: 'liquid',
        md: 'none',
        html: 'none',
      };
      if (value === false) site.engine = 'none';
      else if (typeof value === 'string' && engines[value]) site.engine = engines[value];
      else continue;
      site.engineSource = { file: config, line: node.loc?.start.line };
      break;
    }
    const inputs = [
      ...findProperties(mod, 'dir').map((d) => property(resolve(d, mod), 'input')),
      ...findCalls(mod, 'setInputDirectory').map((c) => args(c)[0]),
    ];
    for (const node of inputs) {
      if (!node) continue;
      const dir = directoryFrom(staticValue(node, mod), config, 'its input directory', site.notes);
      if (dir !== null) {
        input = dir || '.';
        inputLine = node.loc?.start.line;
      }
      break;
    }
    if (
      findCalls(mod, 'addPassthroughCopy').some((c) =>
        JSON.stringify(staticValue(args(c)[0] ?? null, mod)).includes('public'),
      )
    )
      site.servedRoot = 'public';
  }
  const root = input === '.' ? '' : input;
  const source = config ? { file: config, line: inputLine } : { file: 'package.json' };
  site.candidates = markdownFolders(markdown, root, source).map((c) => ({
    ...c,
    extensions: ['md'] as Extension[],
  }));
  const chosen = site.candidates[0]?.directory;
  site.permalink =
    chosen !== undefined ? `/${chosen.slice(root ? root.length + 1 : 0)}/{slug}/` : null;
  void items;
  return site;
}

function gatsby(files: Files, parsers: Parsers, markdown: string[], config: string): Site {
  const site = emptySite('gatsby', { file: config });
  site.servedRoot = 'static';
  site.permalink = '/{slug}/';
  const mod = moduleOf(config, files, parsers, site.notes);
  const text = files.get(config) ?? '';
  const mdx = /['"`]gatsby-plugin-mdx['"`]/.test(text);
  if (mod) {
    walkObjects(mod, (object) => {
      if (staticValue(property(object, 'resolve'), mod) !== 'gatsby-source-filesystem') return;
      const options = property(object, 'options');
      const opts = options ? resolve(options, mod) : null;
      const path = staticValue(property(opts, 'path'), mod);
      const name = staticValue(property(opts, 'name'), mod);
      const dir = directoryFrom(path, config, 'gatsby-source-filesystem', site.notes);
      if (dir === null || !markdown.some((p) => p.startsWith(`${dir}/`))) return;
      site.candidates.push({
        name: typeof name === 'string' ? name : dir.split('/').pop() || null,
        directory: dir,
        source: { file: config, line: object.loc?.start.line },
        extensions: mdx ? ['md', 'mdx'] : ['md'],
      });
    });
  }
  site.candidates = rankCandidates(site.candidates, markdown);
  return site;
}

function walkObjects(mod: JsModule, visit: (object: Node) => void): void {
  const seen = new Set<Node>();
  const go = (node: unknown, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 200) return;
    if (Array.isArray(node)) {
      for (const item of node) go(item, depth + 1);
      return;
    }
    const n = node as Node;
    if (typeof n.type !== 'string' || seen.has(n)) return;
    seen.add(n);
    if (n.type === 'ObjectExpression') visit(n);
    for (const [key, value] of Object.entries(n)) if (key !== 'loc') go(value, depth + 1);
  };
  go(mod.program, 0);
}

const CONTENTLAYER_TYPES: Record<string, SchemaField['type']> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
  json: 'object',
  nested: 'object',
  image: 'image',
  enum: 'string',
  markdown: 'string',
  mdx: 'string',
};

function contentlayerFields(fields: Node, mod: JsModule): SchemaField[] {
  const out: SchemaField[] = [];
  for (const p of (fields.properties as Node[]) ?? []) {
    const name = propertyNameOf(p);
    const value = p.type === 'ObjectProperty' ? resolve(p.value as Node, mod) : null;
    if (!name || !value) continue;
    const spec = staticValue(value, mod);
    if (spec === UNKNOWN || !spec || typeof spec !== 'object') continue;
    const s = spec as Record<string, unknown>;
    let type: SchemaField['type'] = CONTENTLAYER_TYPES[String(s.type)] ?? 'string';
    if (s.type === 'list') type = 'string[]';
    out.push({
      name,
      type,
      required: s.required === true && s.default === undefined,
      ...(s.type === 'enum' && Array.isArray(s.options) ? { values: s.options.map(String) } : {}),
      line: p.loc?.start.line,
    });
  }
  return out;
}

function nextjs(
  items: TreeItem[],
  files: Files,
  parsers: Parsers,
  markdown: string[],
  found: {
    contentlayer: string | null;
    velite: string | null;
    nextra: string | null;
    next: string | null;
    deps: Set<string>;
  },
): Site {
  const isNextra = !!found.nextra && !found.contentlayer && !found.velite;
  const site = emptySite(isNextra ? 'nextra' : 'nextjs', {
    file: found.contentlayer ?? found.velite ?? found.nextra ?? found.next ?? 'package.json',
  });
  site.servedRoot = 'public';
  if (isNextra) site.engine = 'mdx';
  if (found.contentlayer) {
    const file = found.contentlayer;
    const mod = moduleOf(file, files, parsers, site.notes);
    if (mod) {
      let contentDir = '.';
      for (const call of findCalls(mod, 'makeSource')) {
        const options = returnedObject(args(call)[0] ?? ({ type: 'Null' } as Node), mod);
        const dir = directoryFrom(
          staticValue(property(options, 'contentDirPath'), mod),
          file,
          'contentDirPath',
          site.notes,
        );
        if (dir !== null) contentDir = dir;
      }
      for (const call of findCalls(mod, 'defineDocumentType')) {
        const definition = args(call)[0] ? returnedObject(args(call)[0], mod) : null;
        if (!definition) continue;
        const name = staticValue(property(definition, 'name'), mod);
        const pattern = staticValue(property(definition, 'filePathPattern'), mod);
        const contentType = staticValue(property(definition, 'contentType'), mod);
        const fields = property(definition, 'fields');
        const fieldsObject = fields ? (returnedObject(fields, mod) ?? resolve(fields, mod)) : null;
        if (typeof pattern !== 'string') continue;
        const directory = directoryFrom(
          join(contentDir, globPrefix(pattern)),
          file,
          `the ${String(name)} documents`,
          site.notes,
        );
        if (directory === null) continue;
        site.candidates.push({
          name: typeof name === 'string' ? name : null,
          directory,
          source: { file, line: definition.loc?.start.line },
          extensions: globExtensions(pattern),
          mdx: contentType === 'mdx' || pattern.endsWith('.mdx'),
          ...(fieldsObject?.type === 'ObjectExpression'
            ? { schema: contentlayerFields(fieldsObject, mod), schemaFile: file }
            : {}),
        });
      }
    }
  } else if (found.velite) {
    const file = found.velite;
    const mod = moduleOf(file, files, parsers, site.notes);
    if (mod) {
      let root = 'content';
      for (const call of findCalls(mod, 'defineConfig')) {
        const options = args(call)[0] ? resolve(args(call)[0], mod) : null;
        const value = staticValue(property(options, 'root'), mod);
        const dir = directoryFrom(value, file, 'its root', site.notes);
        if (dir !== null) root = dir;
      }
      for (const call of findCalls(mod, 'defineCollection')) {
        const options = args(call)[0] ? resolve(args(call)[0], mod) : null;
        if (options?.type !== 'ObjectExpression') continue;
        const name = staticValue(property(options, 'name'), mod);
        const pattern = staticValue(property(options, 'pattern'), mod);
        const schemaNode = property(options, 'schema');
        if (typeof pattern !== 'string' || !globExtensions(pattern)) continue;
        const directory = directoryFrom(
          join(root, globPrefix(pattern)),
          file,
          `the ${String(name)} collection`,
          site.notes,
        );
        if (directory === null) continue;
        const schema = schemaNode ? objectSchemaFields(schemaNode, mod, null) : null;
        const schemaText = schemaNode ? (files.get(file) ?? '') : '';
        site.candidates.push({
          name: typeof name === 'string' ? name : null,
          directory,
          source: { file, line: options.loc?.start.line },
          extensions: globExtensions(pattern),
          mdx: /\bs\.mdx\(/.test(schemaText),
          ...(schema ? { schema, schemaFile: file } : {}),
        });
      }
    }
  } else if (isNextra) {
    site.candidates = [
      ...markdownFolders(markdown, 'pages', { file: site.toolchainSource?.file ?? 'pages' }),
      ...markdownFolders(markdown, 'content', { file: site.toolchainSource?.file ?? 'content' }),
    ];
  } else {
    if (found.deps.has('next-mdx-remote')) site.engine = 'mdx';
    site.candidates = [
      ...markdownFolders(markdown, '', { file: site.toolchainSource?.file ?? '.' }),
      ...markdownFolders(markdown, 'content', { file: site.toolchainSource?.file ?? '.' }),
      ...markdownFolders(markdown, 'data', { file: site.toolchainSource?.file ?? '.' }),
    ];
  }
  site.candidates = rankCandidates(site.candidates, markdown);
  const names = site.candidates.map((c) => (c.name ?? '').toLowerCase());
  const route = routePermalink(items, ['app', 'src/app', 'pages', 'src/pages'], false, [
    ...names,
    'blog',
    'posts',
  ]);
  if (route) site.permalink = route.permalink;
  else if (isNextra && site.candidates[0])
    site.permalink =
      `/${site.candidates[0].directory.replace(/^(pages|content)\/?/, '')}/{slug}`.replace(
        '//',
        '/',
      );
  return site;
}

export { propertyLine };

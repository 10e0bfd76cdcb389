import {
  FIELD_ROLES,
  type FactSource,
  type FieldRole,
  type FieldRule,
  type FieldType,
  type ImageRules,
  type LearnedProfile,
  type TemplateEngine,
} from '../../../domain/integrations/contentProfile.ts';
import type { TreeItem } from '../../../integrations/github/port.ts';
import { type FrontmatterField, parseFrontmatter } from './frontmatter.ts';
import type { Parsers } from './parsers.ts';
import {
  type Candidate,
  CONFIG_FILES,
  detectSite,
  type Extension,
  markdownPaths,
  postsIn,
  type Site,
} from './site.ts';

/**
 * From a repository's tree and a bounded sample of its files to a LearnedProfile. Pure: the
 * caller reads the files (learnContentProfile.ts); nothing here does I/O or runs the repository's
 * code. Two steps choose what to read: `configFilesToRead(tree)` first, then
 * `sampleFilesToRead(tree, configs)` (posts of the chosen collection, the authors and tags files),
 * so the sample follows what the config says.
 */

export type Tree = { items: TreeItem[]; truncated: boolean };
export type Files = Map<string, string>;

/** Posts read to learn frontmatter: enough to see the site's habits, never the whole blog. */
export const MAX_SAMPLED_POSTS = 20;
/** No file above this is read: a config or a post is far smaller. */
export const MAX_FILE_BYTES = 512 * 1024;

const blobs = (tree: Tree) => new Map(tree.items.map((item) => [item.path, item]));

const readable = (item: TreeItem | undefined) =>
  !!item && item.type === 'blob' && (item.size ?? 0) <= MAX_FILE_BYTES;

export function configFilesToRead(tree: Tree): string[] {
  const byPath = blobs(tree);
  return CONFIG_FILES.filter((path) => readable(byPath.get(path)));
}

/** Evenly spread over the sorted list, so old and new posts are both seen. */
function spread<T>(list: T[], count: number): T[] {
  if (list.length <= count) return list;
  const out: T[] = [];
  for (let i = 0; i < count; i++) out.push(list[Math.floor((i * list.length) / count)]);
  return out;
}

export function sampleFilesToRead(tree: Tree, configs: Files, parsers: Parsers): string[] {
  const site = detectSite(tree.items, configs, parsers);
  const byPath = blobs(tree);
  const chosen = site.candidates[0];
  const posts = chosen
    ? postsIn(markdownPaths(tree.items), chosen.directory, chosen.extensions).filter((p) =>
        readable(byPath.get(p)),
      )
    : [];
  const sampled = spread([...posts].sort(), MAX_SAMPLED_POSTS);
  const extra = [...site.vocabularyFiles, ...site.archetypes, ...vocabularyGuesses(chosen)];
  return [...new Set([...sampled, ...extra])].filter((p) => readable(byPath.get(p)));
}

function vocabularyGuesses(chosen: Candidate | undefined): string[] {
  const near = chosen ? [chosen.directory] : [];
  return [
    ...near.flatMap((d) => [`${d}/authors.yml`, `${d}/tags.yml`]),
    'data/authors.yml',
    'data/authors.json',
    '_data/authors.yml',
    '_data/authors.json',
    'src/data/authors.json',
    'src/data/authors.yml',
  ];
}

// ——— roles ———

const ROLE_NAMES: [FieldRole, string[]][] = [
  ['title', ['title']],
  ['description', ['description', 'summary', 'excerpt', 'subtitle']],
  [
    'date',
    ['pubDate', 'pubDatetime', 'date', 'publishDate', 'publishedAt', 'published', 'created'],
  ],
  [
    'updated',
    ['updatedDate', 'modDatetime', 'lastmod', 'updated', 'updatedAt', 'lastUpdated', 'modified'],
  ],
  [
    'cover',
    [
      'heroImage',
      'cover',
      'image',
      'thumbnail',
      'featuredImage',
      'featured_image',
      'coverImage',
      'banner',
      'ogImage',
      'images',
    ],
  ],
  ['coverAlt', ['heroImageAlt', 'coverAlt', 'imageAlt', 'cover_alt']],
  ['tags', ['tags']],
  ['categories', ['categories', 'category']],
  ['authors', ['authors', 'author']],
  ['draft', ['draft']],
  ['slug', ['slug']],
  ['keyword', ['keywords', 'keyword']],
];

/** Each role given to the site's field that best matches it; the other fields get none. */
function assignRoles(names: string[]): Map<string, FieldRole> {
  const out = new Map<string, FieldRole>();
  for (const [role, candidates] of ROLE_NAMES) {
    const lower = names.map((n) => n.toLowerCase());
    for (const candidate of candidates) {
      const at = lower.indexOf(candidate.toLowerCase());
      if (at >= 0 && !out.has(names[at])) {
        out.set(names[at], role);
        break;
      }
    }
  }
  return out;
}

// ——— posts ———

type Post = {
  path: string;
  fields: FrontmatterField[];
  format: 'yaml' | 'toml' | 'json';
  body: string;
};

function readPosts(paths: string[], files: Files, parsers: Parsers, notes: string[]): Post[] {
  const posts: Post[] = [];
  for (const path of paths) {
    const text = files.get(path);
    if (text === undefined) continue;
    const parsed = parseFrontmatter(text, parsers);
    if (!parsed.ok) {
      notes.push(`${path} was skipped: ${parsed.reason}.`);
      continue;
    }
    posts.push({ path, fields: parsed.fields, format: parsed.format, body: parsed.body });
  }
  return posts;
}

/**
 * A post Inkstream wrote in its own fixed shape (its frontmatter names the writer): it teaches
 * nothing about the site's conventions, so it is left out of what is learned.
 */
function isInkstreamPost(post: Post): boolean {
  const generator = post.fields.find((field) => field.name === 'generator')?.value;
  return (
    typeof generator === 'object' &&
    generator !== null &&
    ['openai', 'offline'].includes(String((generator as { provider?: unknown }).provider))
  );
}

function majority<T>(values: T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: T | undefined;
  let bestCount = 0;
  for (const [value, count] of counts)
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  return best;
}

function typeFromPosts(
  occurrences: FrontmatterField[],
  authorKeys: Set<string>,
): Pick<FieldRule, 'type' | 'format'> {
  const kind = majority(occurrences.map((o) => o.kind));
  const sample = occurrences.find((o) => o.kind === kind) ?? occurrences[0];
  const value = sample.value;
  if (kind === 'date') return { type: 'date' };
  if (kind === 'datetime')
    return typeof value === 'string' || value instanceof Date
      ? { type: 'datetime' }
      : { type: 'datetime' };
  if (kind === 'quoted' && typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return { type: 'string', format: 'YYYY-MM-DD' };
    if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value))
      return { type: 'string', format: 'ISO 8601' };
    return { type: 'string' };
  }
  if (kind === 'list') {
    const items = Array.isArray(value) ? value : [];
    if (items.length && items.every((v) => typeof v === 'string' && authorKeys.has(v)))
      return { type: 'reference[]' };
    return { type: 'string[]' };
  }
  if (kind === 'map' && value && typeof value === 'object')
    return { type: 'object', format: `{ ${Object.keys(value).join(', ')} }` };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'number') return { type: 'number' };
  if (typeof value === 'string' && authorKeys.has(value)) return { type: 'reference' };
  return { type: 'string' };
}

/** Roles Inkstream always has a value for: requiring them can never refuse an article. */
const ALWAYS_FILLED = new Set<FieldRole>(['title', 'date', 'slug', 'draft']);

function fieldsFromPosts(
  posts: Post[],
  authorKeys: Set<string>,
  references: Site['references'],
): FieldRule[] {
  const byName = new Map<string, { post: Post; field: FrontmatterField }[]>();
  for (const post of posts)
    for (const field of post.fields) {
      const list = byName.get(field.name) ?? [];
      list.push({ post, field });
      byName.set(field.name, list);
    }
  const roles = assignRoles([...byName.keys()]);
  return [...byName].map(([name, seen]) => {
    const role = roles.get(name) ?? null;
    const keysOf = role === 'authors' || role === 'tags' ? references[role] : undefined;
    const typed = typeFromPosts(
      seen.map((s) => s.field),
      authorKeys,
    );
    const rule: FieldRule = {
      role,
      name,
      // Keys of a file the toolchain checks them against: a list of keys, by the config that says so.
      ...(keysOf ? { type: typed.type === 'reference' ? 'reference' : 'reference[]' } : typed),
      // A field Inkstream has nothing to fill with is never required of it (the type's rule); one
      // that it may lack (a cover, tags, authors) only when more than one post shows it: a single
      // post says what a post may hold, not what each must. Keys into the site's own file (authors,
      // tags) are never required from the posts alone: Inkstream cannot invent a key, and the
      // toolchains that check them (Docusaurus, Jekyll) build a post without them.
      required:
        role !== null &&
        !keysOf &&
        seen.length > posts.length / 2 &&
        (ALWAYS_FILLED.has(role) || seen.length >= 2),
      source: keysOf ?? { file: seen[0].post.path, line: seen[0].field.line },
    };
    return rule;
  });
}

/** Fields most posts carry that Inkstream has no value for: said, so a person can set them. */
function unfilledNotes(posts: Post[], fields: FieldRule[]): string[] {
  return fields
    .filter((f) => f.role === null)
    .flatMap((f) => {
      const values = posts.flatMap((p) =>
        p.fields.filter((x) => x.name === f.name).map((x) => JSON.stringify(x.value)),
      );
      if (values.length <= posts.length / 2) return [];
      const same = new Set(values).size === 1 ? ` (always ${values[0]})` : '';
      return [
        `Most posts set ${f.name}${same}, which Inkstream has no value for (${f.source.file} line ${f.source.line}); new posts leave it out.`,
      ];
    });
}

function fieldsFromSchema(candidate: Candidate, posts: Post[]): FieldRule[] {
  const schema = (candidate.schema ?? []).filter((f) => f.type !== 'computed');
  const roles = assignRoles(schema.map((f) => f.name));
  return schema.map((field) => {
    let type = field.type as FieldType;
    // A schema's date accepts both; the posts show which the site writes.
    const kinds = posts.flatMap((p) =>
      p.fields.filter((f) => f.name === field.name).map((f) => f.kind),
    );
    if (type === 'date' && majority(kinds) === 'datetime') type = 'datetime';
    // Contentlayer's `json` says nothing of the shape: the posts do.
    if (type === 'object' && !field.format && majority(kinds) === 'list') type = 'string[]';
    return {
      role: roles.get(field.name) ?? null,
      name: field.name,
      type,
      ...(field.format && field.format !== 'unread' ? { format: field.format } : {}),
      required: field.required,
      ...(field.values ? { values: field.values } : {}),
      source: { file: candidate.schemaFile ?? candidate.source.file, line: field.line },
    };
  });
}

// ——— file names ———

function namePattern(relative: string): string {
  const parts = relative.split('/');
  const file = parts[parts.length - 1].replace(/\.[^.]+$/, '');
  const folder = parts.length >= 2 ? parts[parts.length - 2] : null;
  const year = parts.length >= 2 && /^\d{4}$/.test(parts[0]) ? '{year}/' : '';
  const dated = (name: string) => /^\d{4}-\d{2}-\d{2}-/.test(name);
  if (parts.length - (year ? 1 : 0) >= 2 && (file === 'index' || file === folder))
    return `${year}${dated(folder ?? '') ? '{date}-{slug}' : '{slug}'}/${file === 'index' ? 'index' : '{slug}'}`;
  return `${year}${dated(file) ? '{date}-{slug}' : '{slug}'}`;
}

function chooseExtension(posts: string[], allowed: Extension[] | undefined, site: Site): Extension {
  const exts = posts.map((p) => (/\.([^.]+)$/.exec(p)?.[1] ?? '').toLowerCase() as Extension);
  const permitted = (e: Extension) => !allowed || allowed.includes(e);
  const voted = majority(exts.filter(permitted));
  if (voted) return voted;
  if (allowed?.length) return allowed[0];
  return site.engine === 'mdx' ? 'mdx' : 'md';
}

// ——— images ———

type ImageEvidence = {
  reference: ImageRules['reference'];
  directory: string;
  urlPrefix: string;
  ext: string;
  source: FactSource;
};

const dirname = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

function normalize(path: string): string | null {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (!out.length) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

function imageEvidence(
  value: string,
  post: Post,
  line: number,
  folderPerPost: boolean,
  site: Site,
  directory: string,
): ImageEvidence | null {
  if (/^[a-z]+:/i.test(value) || value.startsWith('//') || value.includes('{{')) return null;
  const ext = (/\.([a-z0-9]+)$/i.exec(value)?.[1] ?? '').toLowerCase();
  if (!ext) return null;
  const source = { file: post.path, line };
  if (value.startsWith('/')) {
    const urlPrefix = dirname(value) || '/';
    const root = site.servedRoot && site.servedRoot !== '.' ? site.servedRoot : '';
    return {
      reference: 'absolute',
      directory: normalize(`${root}/${urlPrefix}`) ?? root,
      urlPrefix,
      ext,
      source,
    };
  }
  const resolved = normalize(`${dirname(post.path)}/${value}`);
  if (resolved === null) return null;
  if (folderPerPost && !value.includes('/')) {
    return { reference: 'bundle', directory: `${directory}/{slug}`, urlPrefix: '', ext, source };
  }
  if (folderPerPost && value.startsWith('./') && !value.slice(2).includes('/'))
    return { reference: 'bundle', directory: `${directory}/{slug}`, urlPrefix: '', ext, source };
  return { reference: 'relative', directory: dirname(resolved), urlPrefix: '', ext, source };
}

const FORMATS: Record<string, ImageRules['format']> = {
  png: 'png',
  jpg: 'jpg',
  jpeg: 'jpg',
  webp: 'webp',
};

function learnImages(
  posts: Post[],
  fields: FieldRule[],
  site: Site,
  directory: string,
  folderPerPost: boolean,
): ImageRules | null {
  const cover = fields.find((f) => f.role === 'cover');
  const evidence: ImageEvidence[] = [];
  // Only posts shaped like a new post (in a folder of their own, or not) say where its images go.
  const ownFolder = (path: string) => {
    const parts = path.split('/');
    const name = (parts.pop() ?? '').replace(/\.[^.]+$/, '');
    return name === 'index' || name === parts.pop();
  };
  for (const post of posts) {
    if (ownFolder(post.path) !== folderPerPost) continue;
    const field = cover && post.fields.find((f) => f.name === cover.name);
    const raw = field?.value;
    const value =
      typeof raw === 'string'
        ? raw
        : raw &&
            typeof raw === 'object' &&
            typeof (raw as Record<string, unknown>).image === 'string'
          ? ((raw as Record<string, unknown>).image as string)
          : Array.isArray(raw) && typeof raw[0] === 'string'
            ? raw[0]
            : null;
    const fromField =
      value && field
        ? imageEvidence(value, post, field.line, folderPerPost, site, directory)
        : null;
    if (fromField) {
      evidence.push(fromField);
      continue;
    }
    const inBody = /!\[[^\]]*\]\(([^)\s]+)/.exec(post.body)?.[1];
    const fromBody = inBody ? imageEvidence(inBody, post, 1, folderPerPost, site, directory) : null;
    if (fromBody) evidence.push(fromBody);
  }
  const reference = majority(evidence.map((e) => e.reference));
  // On a tie the most general folder (the shortest) wins.
  const directory_ = majority(
    evidence
      .filter((e) => e.reference === reference)
      .map((e) => e.directory)
      .sort((a, b) => a.length - b.length),
  );
  const chosen = evidence.find((e) => e.reference === reference && e.directory === directory_);
  if (chosen) {
    const format = FORMATS[majority(evidence.map((e) => e.ext)) ?? ''] ?? 'png';
    return {
      reference: chosen.reference,
      directory: chosen.directory,
      urlPrefix: chosen.urlPrefix,
      format,
      source: chosen.source,
    };
  }
  const inkstream = { file: 'inkstream' };
  if (cover?.type === 'image')
    return {
      reference: 'relative',
      directory: 'src/assets/images',
      urlPrefix: '',
      format: 'png',
      source: inkstream,
    };
  if (folderPerPost)
    return {
      reference: 'bundle',
      directory: `${directory}/{slug}`,
      urlPrefix: '',
      format: 'png',
      source: inkstream,
    };
  const defaults: Partial<Record<Site['toolchain'], [string, string]>> = {
    hugo: ['static/images', '/images'],
    docusaurus: ['static/img/blog', '/img/blog'],
    jekyll: ['assets/images', '/assets/images'],
    nextjs: ['public/images', '/images'],
    nextra: ['public/images', '/images'],
    astro: ['public/images', '/images'],
    eleventy: site.servedRoot === 'public' ? ['public/img', '/img'] : ['img', '/img'],
    gatsby: ['static/images', '/images'],
  };
  const fallback = defaults[site.toolchain];
  return fallback
    ? {
        reference: 'absolute',
        directory: fallback[0],
        urlPrefix: fallback[1],
        format: 'png',
        source: inkstream,
      }
    : null;
}

// ——— vocabulary ———

function readVocabulary(
  site: Site,
  files: Files,
  posts: Post[],
  fields: FieldRule[],
  parsers: Parsers,
) {
  const authors: { key: string; name: string }[] = [];
  const tags = new Map<string, number>();
  const add = (tag: string) => tags.set(tag, (tags.get(tag) ?? 0) + 1);
  for (const [path, text] of files) {
    const file = path.split('/').pop() ?? '';
    // A key file the config names is read as what it is, whatever it is called.
    const named =
      path === site.keyFiles.authors ? 'authors' : path === site.keyFiles.tags ? 'tags' : null;
    const name = named ? `${named}.${/\.json$/.test(file) ? 'json' : 'yml'}` : file;
    if (!/^(authors|tags)\.(ya?ml|json)$/.test(name)) continue;
    let data: unknown;
    try {
      data = name.endsWith('.json')
        ? JSON.parse(text)
        : parsers.YAML.parse(text, { schema: 'core' });
    } catch {
      continue;
    }
    if (!data || typeof data !== 'object') continue;
    const entries = Array.isArray(data)
      ? data.flatMap((entry) =>
          entry &&
          typeof entry === 'object' &&
          typeof (entry as Record<string, unknown>).key === 'string'
            ? [[(entry as Record<string, unknown>).key as string, entry] as const]
            : [],
        )
      : Object.entries(data as Record<string, unknown>);
    for (const [key, value] of entries.slice(0, 500)) {
      const record = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
      if (name.startsWith('authors'))
        authors.push({ key, name: typeof record.name === 'string' ? record.name : key });
      else add(typeof record.label === 'string' ? key : key);
    }
  }
  const tagField =
    fields.find((f) => f.role === 'tags') ?? fields.find((f) => f.role === 'categories');
  for (const post of posts) {
    const value = tagField && post.fields.find((f) => f.name === tagField.name)?.value;
    if (Array.isArray(value)) for (const tag of value) if (typeof tag === 'string') add(tag);
    if (typeof value === 'string') add(value);
  }
  return {
    tags: [...tags]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 200)
      .map(([t]) => t),
    authors,
  };
}

// ——— the profile ———

export type LearnResult =
  | { learned: LearnedProfile; failureReason: null }
  | { learned: null; failureReason: string };

function caseCollisions(tree: Tree): string[] {
  const seen = new Map<string, string>();
  const clashes: string[] = [];
  for (const item of tree.items) {
    const lower = item.path.toLowerCase();
    const other = seen.get(lower);
    if (other !== undefined && other !== item.path) clashes.push(`${other} and ${item.path}`);
    else seen.set(lower, item.path);
  }
  return clashes;
}

const TOOLCHAIN_NAMES: Record<Site['toolchain'], string> = {
  astro: 'an Astro',
  hugo: 'a Hugo',
  docusaurus: 'a Docusaurus',
  jekyll: 'a Jekyll',
  eleventy: 'an Eleventy',
  nextjs: 'a Next.js',
  gatsby: 'a Gatsby',
  nextra: 'a Nextra',
  plain: 'a plain',
};

export function learn(tree: Tree, files: Files, parsers: Parsers): LearnResult {
  const site = detectSite(tree.items, files, parsers);
  const notes = [...site.notes];
  if (tree.truncated)
    notes.push(
      'GitHub listed only part of the repository (its tree is too large); what was learned comes from the part listed.',
    );
  const clashes = caseCollisions(tree);
  if (clashes.length)
    notes.push(
      `The repository has paths that differ only in case (${clashes.slice(0, 3).join('; ')}${clashes.length > 3 ? `; ${clashes.length - 3} more` : ''}); a new post is never named so that it clashes with one.`,
    );
  const byPath = blobs(tree);
  const skipped = tree.items.filter(
    (i) =>
      (i.type === 'symlink' || i.type === 'commit') &&
      /\.(md|mdx|markdown)$|^(src\/content|content|blog|_posts|posts)(\/|$)/.test(i.path),
  );
  for (const item of skipped.slice(0, 5))
    notes.push(
      `${item.path} is a ${item.type === 'symlink' ? 'symbolic link' : 'submodule'}; it was not followed.`,
    );

  const chosen = site.candidates[0];
  if (!chosen)
    return {
      learned: null,
      failureReason:
        site.toolchain === 'plain'
          ? 'No folder of Markdown posts was found in the repository; set the content directory.'
          : `This looks like ${TOOLCHAIN_NAMES[site.toolchain]} site, but no folder of posts was found; set the content directory.`,
    };
  const allPosts = postsIn(markdownPaths(tree.items), chosen.directory, chosen.extensions);
  const tooLarge = allPosts.filter((p) => (byPath.get(p)?.size ?? 0) > MAX_FILE_BYTES);
  for (const path of tooLarge.slice(0, 3))
    notes.push(`${path} is larger than ${MAX_FILE_BYTES / 1024} KB; it was not read.`);
  const sampledPaths = allPosts.filter((p) => files.has(p));
  const read = readPosts(sampledPaths, files, parsers, notes);
  const posts = read.filter((post) => !isInkstreamPost(post));
  if (posts.length < read.length) {
    if (!chosen.schema && posts.length === 0)
      return {
        learned: null,
        failureReason: `The only posts read in ${chosen.directory || 'the repository'} were written by Inkstream in its own shape: it goes on publishing so until the site has posts of its own, or a person sets the content profile.`,
      };
    notes.push(
      `${read.length - posts.length} of the posts read were written by Inkstream in its own shape; the site's conventions were learned from the others.`,
    );
  }
  const archetypePosts = posts.length ? [] : readPosts(site.archetypes, files, parsers, notes);

  const authorKeys = new Set<string>();
  for (const [path, text] of files)
    if (/(^|\/)authors\.ya?ml$/.test(path) || path === site.keyFiles.authors)
      try {
        const data = parsers.YAML.parse(text, { schema: 'core' });
        if (data && typeof data === 'object' && !Array.isArray(data))
          for (const key of Object.keys(data)) authorKeys.add(key);
      } catch {
        notes.push(`${path} could not be read as YAML; the site's authors were not learned.`);
      }

  const fields = chosen.schema
    ? fieldsFromSchema(chosen, posts)
    : fieldsFromPosts(posts.length ? posts : archetypePosts, authorKeys, site.references);
  if (!chosen.schema) notes.push(...unfilledNotes(posts, fields));
  if (!chosen.schema && !posts.length && !archetypePosts.length)
    notes.push(
      `No post of ${chosen.directory || 'the repository'} could be read; the frontmatter fields were not learned.`,
    );

  const relative = allPosts.map((p) => p.slice(chosen.directory ? chosen.directory.length + 1 : 0));
  let pattern =
    majority(relative.map(namePattern)) ??
    (site.toolchain === 'gatsby' ? '{slug}/index' : '{slug}');
  if (site.fileNameRule) pattern = site.fileNameRule;
  const extension = chooseExtension(allPosts, chosen.extensions, site);
  const folderPerPost = pattern.endsWith('/index') || pattern.endsWith('/{slug}');
  const frontmatterFormat = majority([...posts, ...archetypePosts].map((p) => p.format)) ?? 'yaml';
  const engine: TemplateEngine =
    site.engine ?? (extension === 'mdx' || chosen.mdx ? 'mdx' : 'none');

  let excerptSeparator = site.excerptSeparator;
  if (!excerptSeparator) {
    const markers = [
      '<!-- truncate -->',
      '{/* truncate */}',
      '<!--truncate-->',
      '<!--more-->',
      '<!-- more -->',
    ];
    excerptSeparator =
      majority(posts.flatMap((p) => markers.filter((m) => p.body.includes(m)))) ?? null;
    if (!excerptSeparator && site.toolchain === 'docusaurus')
      excerptSeparator = extension === 'mdx' ? '{/* truncate */}' : '<!-- truncate -->';
  }

  // Docusaurus takes a post's date from a `YYYY-MM-DD-` file name into its URL unless `slug` is set.
  let permalink = site.permalink;
  if (
    site.toolchain === 'docusaurus' &&
    permalink &&
    pattern.includes('{date}-') &&
    !fields.some((f) => f.role === 'slug')
  )
    permalink = permalink.replace('{slug}', '{year}/{month}/{day}/{slug}');

  const alternatives = site.candidates
    .slice(1)
    .map((c) => ({ name: c.name, directory: c.directory, source: c.source }));
  const learned: LearnedProfile = {
    toolchain: site.toolchain,
    toolchainSource: site.toolchainSource,
    collection: {
      name: chosen.name,
      directory: chosen.directory,
      source: chosen.source,
      alternatives,
    },
    fileName: `${pattern}.${extension}`,
    extension,
    frontmatterFormat,
    templateEngine: engine,
    fields,
    vocabulary: readVocabulary(site, files, posts, fields, parsers),
    images: learnImages(posts, fields, site, chosen.directory, folderPerPost),
    servedRoot: site.servedRoot,
    permalink,
    excerptSeparator,
    notes,
  };
  void FIELD_ROLES;
  return { learned, failureReason: null };
}

import { posix } from 'node:path';
import type {
  FieldRule,
  LearnedProfile,
  TemplateEngine,
} from '../../../domain/integrations/contentProfile.ts';
import type { GitHubSettings } from '../../../domain/integrations/integrations.ts';
import { parseMdx, type ArticleFrontmatter } from '../../../mdx/mdx.ts';
import { articlePath, coverPath, joinPath, mdxFor } from '../legacyFile.ts';
import { formatDay, frontmatterBlock, type FrontmatterValue } from './frontmatterText.ts';
import { breakDelimiters, EXCERPT_SEPARATORS, siteBody } from './inertForEngine.ts';
import { safeRepositoryPath, sitePostPath } from './sitePath.ts';
import { fieldProblem, fileProblem, type SiteFile, type SiteProblem } from './siteFile.ts';

/**
 * The article's canonical text (the draft Inkstream keeps: its fixed frontmatter and MDX body), the
 * slug chosen for this publication, its cover PNG, and the connection's folders for the legacy shape.
 */
export type CanonicalArticle = {
  mdx: string;
  slug: string;
  cover: Buffer | null;
  settings: Pick<GitHubSettings, 'contentDirectory' | 'coverDirectory'>;
  /**
   * The path recorded for the article (a revision, a refresh, a retry): the post is written there
   * whatever the profile's pattern gives now. Absent for a first rendering.
   */
  path?: string;
};

/** The post as the site gets it; `frontmatter` and `body` are the two parts of `files[0]`. */
export type RenderedPost = { path: string; content: string; frontmatter: string; body: string };

export type RenderedForSite = {
  files: SiteFile[];
  post: RenderedPost | null;
  problems: SiteProblem[];
};

const normalTag = (tag: string): string =>
  tag
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The article's tags in the site's own spelling first; new ones only where the site takes free text. */
function siteTags(tags: string[], vocabulary: string[], onlyKnown: boolean): string[] {
  const known = new Map(vocabulary.map((tag) => [normalTag(tag), tag]));
  const matched = tags.flatMap((tag) => known.get(normalTag(tag)) ?? []);
  const fresh = onlyKnown ? [] : tags.filter((tag) => !known.has(normalTag(tag)));
  return [...new Set([...matched, ...fresh])];
}

/** The site's author for the article's byline: the one whose key or name matches, or a single-author site's. */
function siteAuthor(
  author: string,
  authors: LearnedProfile['vocabulary']['authors'],
): { key: string; name: string } | null {
  const wanted = normalTag(author);
  const match = authors.find(
    (entry) => normalTag(entry.key) === wanted || normalTag(entry.name) === wanted,
  );
  return match ?? (authors.length === 1 ? authors[0] : null);
}

type Context = {
  frontmatter: ArticleFrontmatter;
  slug: string;
  day: string;
  coverReference: string | null;
  profile: LearnedProfile;
};

const dayOf = (value: string): string => value.slice(0, 10);

function dateValue(rule: FieldRule, value: string): FrontmatterValue {
  const day = dayOf(value);
  if (rule.type === 'date') return { kind: 'date', text: day };
  if (rule.type === 'datetime')
    return { kind: 'datetime', text: value.length > 10 ? value : `${day}T00:00:00Z` };
  return rule.format ? formatDay(day, rule.format) : day;
}

/** The keys of an object field's shape, `{ image, alt }`. */
const objectKeys = (format: string | undefined): string[] =>
  format?.match(/[A-Za-z_][A-Za-z0-9_-]*/g) ?? ['image', 'alt'];

/** The value Inkstream writes for a field, or undefined when it has none (the field is left out). */
function valueFor(rule: FieldRule, context: Context): FrontmatterValue | undefined {
  const { frontmatter, profile } = context;
  const text = (value: string): FrontmatterValue => (rule.type === 'string[]' ? [value] : value);
  switch (rule.role) {
    case 'title':
      return text(frontmatter.title);
    case 'description':
      return frontmatter.description ? text(frontmatter.description) : undefined;
    case 'keyword':
      return frontmatter.keyword ? text(frontmatter.keyword) : undefined;
    case 'slug':
      return text(context.slug);
    case 'date':
      return dateValue(rule, frontmatter.date);
    case 'updated': {
      const updated = typeof frontmatter.updated === 'string' ? frontmatter.updated : null;
      return updated
        ? dateValue(rule, updated)
        : rule.required
          ? dateValue(rule, frontmatter.date)
          : undefined;
    }
    case 'draft':
      return rule.type === 'string' ? 'false' : false;
    case 'tags': {
      const tags = siteTags(frontmatter.tags, profile.vocabulary.tags, rule.type === 'reference[]');
      if (!tags.length) return undefined;
      return rule.type === 'string' ? tags.join(', ') : tags;
    }
    case 'categories': {
      if (!rule.required) return undefined;
      const first = siteTags(frontmatter.tags, profile.vocabulary.tags, false)[0];
      return first === undefined ? undefined : rule.type === 'string' ? first : [first];
    }
    case 'authors': {
      const onlyKnown = rule.type === 'reference' || rule.type === 'reference[]';
      const match = siteAuthor(frontmatter.author, profile.vocabulary.authors);
      if (onlyKnown && !match) return undefined;
      const value = onlyKnown ? match!.key : (match?.name ?? frontmatter.author);
      if (!value) return undefined;
      return rule.type.endsWith('[]') ? [value] : value;
    }
    case 'cover': {
      if (!context.coverReference) return undefined;
      // A list of images (Contentlayer's `images: { type: 'list', of: { type: 'string' } }`).
      if (rule.type === 'string[]') return [context.coverReference];
      if (rule.type !== 'object') return context.coverReference;
      const keys = objectKeys(rule.format);
      const alt = keys.find((key) => /^(alt|caption|title)$/i.test(key));
      const image = keys.find((key) => key !== alt) ?? 'image';
      return {
        [image]: context.coverReference,
        ...(alt ? { [alt]: frontmatter.title } : {}),
      };
    }
    case 'coverAlt':
      return context.coverReference ? frontmatter.title : undefined;
    default:
      return undefined;
  }
}

/** Strings made inert for the engine (a frontmatter value is text Inkstream writes too). */
function inertValue(value: FrontmatterValue, engine: TemplateEngine): FrontmatterValue {
  if (typeof value === 'string') return breakDelimiters(value, engine);
  if (Array.isArray(value)) return value.map((item) => breakDelimiters(item, engine));
  if (typeof value === 'object' && !('kind' in value))
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, breakDelimiters(item, engine)]),
    );
  return value;
}

/** Where the cover goes and how the frontmatter refers to it, by the profile's image rules. */
function coverPlacement(
  profile: LearnedProfile,
  postPath: string,
  slug: string,
): { path: string; reference: string } | { problem: SiteProblem } {
  const images = profile.images!;
  const name = `${slug}.png`;
  if (images.reference === 'bundle') {
    const folder = posix.dirname(postPath);
    if (!profile.fileName.includes('/'))
      return {
        problem: fileProblem(
          'a folder per post for a page bundle',
          `Covers beside the post need a folder per post, but posts are named ${JSON.stringify(profile.fileName)}`,
          images.source,
        ),
      };
    return { path: `${folder}/cover.png`, reference: 'cover.png' };
  }
  const path = joinPath(images.directory.replace(/\/+$/, ''), name);
  if (!safeRepositoryPath(path))
    return {
      problem: fileProblem(
        'an image folder inside the repository',
        `The image folder ${JSON.stringify(images.directory)} is not a plain path inside the repository`,
        images.source,
      ),
    };
  if (images.reference === 'absolute')
    return { path, reference: `${images.urlPrefix.replace(/\/+$/, '')}/${name}` };
  const relative = posix.relative(posix.dirname(postPath), path);
  return { path, reference: relative.startsWith('.') ? relative : `./${relative}` };
}

/**
 * The article rendered into the site's shape (docs/publishing.md, "The file each site gets"):
 * the post at the profile's path and name, frontmatter in the site's format with its field names
 * and types, the cover where its images go, every text inert for its template engine. A `null`
 * profile (a legacy connection) renders exactly the fixed shape of before. Pure: the same input
 * gives the same bytes, so a re-run commits nothing new.
 */
export function renderForSite(
  canonical: CanonicalArticle,
  profile: LearnedProfile | null,
): RenderedForSite {
  const { slug, cover, settings } = canonical;
  if (profile === null) {
    const content = mdxFor(canonical.mdx, slug);
    const path = canonical.path ?? articlePath(settings, slug);
    const files: SiteFile[] = [{ path, content }];
    if (cover) files.push({ path: coverPath(settings, slug), content: cover });
    return { files, post: { path, content, frontmatter: '', body: content }, problems: [] };
  }
  let parsed;
  try {
    parsed = parseMdx(canonical.mdx);
  } catch (error) {
    return {
      files: [],
      post: null,
      problems: [
        fileProblem(
          "Inkstream's frontmatter",
          `The article's own frontmatter cannot be read (${error instanceof Error ? error.message.split('\n')[0] : String(error)}), so it cannot be written in the site's shape`,
        ),
      ],
    };
  }
  const day = dayOf(parsed.frontmatter.date);
  const located = canonical.path ? { path: canonical.path } : sitePostPath(profile, slug, day);
  if ('problem' in located) return { files: [], post: null, problems: [located.problem] };
  const problems: SiteProblem[] = [];
  const files: SiteFile[] = [];
  const wantsCover = profile.fields.some((rule) => rule.role === 'cover');
  let coverReference: string | null = null;
  if (cover && wantsCover && profile.images) {
    const placed = coverPlacement(profile, located.path, slug);
    if ('problem' in placed) problems.push(placed.problem);
    else {
      coverReference = placed.reference;
      files.push({ path: placed.path, content: cover });
    }
  }
  const context: Context = { frontmatter: parsed.frontmatter, slug, day, coverReference, profile };
  const entries: [string, FrontmatterValue][] = [];
  for (const rule of profile.fields) {
    const value = valueFor(rule, context);
    if (value === undefined) {
      if (rule.required)
        problems.push(
          fieldProblem(
            rule,
            `a ${rule.type}`,
            `is required${rule.role ? '' : ' (a field Inkstream has nothing for)'}`,
          ),
        );
      continue;
    }
    entries.push([rule.name, inertValue(value, profile.templateEngine)]);
  }
  const separator = profile.excerptSeparator;
  if (separator && !EXCERPT_SEPARATORS.includes(separator))
    problems.push(
      fileProblem(
        `one of ${EXCERPT_SEPARATORS.join(', ')}`,
        `The summary separator ${JSON.stringify(separator.slice(0, 40))} is not one Inkstream writes`,
      ),
    );
  const body = siteBody(
    parsed.body,
    profile.templateEngine,
    separator && EXCERPT_SEPARATORS.includes(separator) ? separator : null,
  );
  if (profile.templateEngine !== 'mdx' && body.mdxCode.length)
    problems.push(
      fileProblem(
        'Markdown without MDX code',
        `The article holds MDX code (${body.mdxCode.slice(0, 3).join(', ')}) that a .${profile.extension} file on this site cannot run`,
      ),
    );
  const frontmatter = frontmatterBlock(entries, profile.frontmatterFormat);
  const content = `${frontmatter}\n${body.text}`;
  files.unshift({ path: located.path, content });
  return {
    files,
    post: { path: located.path, content, frontmatter, body: body.text },
    problems,
  };
}

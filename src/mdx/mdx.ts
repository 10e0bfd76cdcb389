import matter from 'gray-matter';
import { z } from 'zod';

export const ArticleFrontmatter = z
  .object({
    title: z.string().min(1),
    description: z.string(),
    slug: z.string().min(1),
    /** ISO 8601 date (or date-time) the article is dated. */
    date: z.string().min(1),
    keyword: z.string(),
    tags: z.array(z.string()),
    /** Path or URL of the cover image. */
    cover: z.string().optional(),
    author: z.string(),
    brand: z.string().optional(),
    /** Who wrote it: offline output is marked so nobody mistakes it for a model's. */
    generator: z.object({ provider: z.enum(['openai', 'offline']), model: z.string() }),
    /** `brief`: the offline writer's material for a writer, not an article (docs/pipeline.md). */
    kind: z.enum(['brief']).optional(),
  })
  .loose(); // keys a person added by hand survive a round trip

export type ArticleFrontmatter = z.infer<typeof ArticleFrontmatter>;

export type ParsedMdx = { frontmatter: ArticleFrontmatter; body: string };

/** gray-matter evaluates `---js` / `---javascript` frontmatter as code; Inkstream reads YAML only. */
const refuseJavaScript = (): never => {
  throw new Error('JavaScript frontmatter is not read: only YAML frontmatter is supported.');
};
export const MATTER_OPTIONS = { engines: { js: refuseJavaScript, javascript: refuseJavaScript } };

/** `---` YAML frontmatter `---` then the markdown body. */
export function buildMdx(frontmatter: ArticleFrontmatter, body: string): string {
  const data = JSON.parse(JSON.stringify(frontmatter)) as Record<string, unknown>; // YAML cannot dump undefined
  // A file object, not a string: gray-matter parses a string's own leading `---` block as frontmatter
  // first (evaluating `---js`, merging its keys), and a body is never frontmatter.
  const file = { content: `${body.trim()}\n`, data: {} } as unknown as Parameters<
    typeof matter.stringify
  >[0];
  return matter.stringify(file, data, MATTER_OPTIONS);
}

/**
 * Reads an MDX file back. Dates YAML parsed as Date objects come back as ISO strings; a missing or
 * wrong field is a zod error naming it.
 */
export function parseMdx(mdx: string): ParsedMdx {
  const file = matter(mdx, MATTER_OPTIONS); // options given: gray-matter's cache hands out shared objects otherwise
  const frontmatter = ArticleFrontmatter.parse(datesToText(file.data));
  return { frontmatter, body: file.content.replace(/^\n+/, '') };
}

/** The part of a file after its frontmatter, whatever the frontmatter holds (JavaScript frontmatter is refused). */
export const mdxBodyOf = (mdx: string): string => matter(mdx, MATTER_OPTIONS).content;

function datesToText(value: unknown): unknown {
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (Array.isArray(value)) return value.map(datesToText);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, datesToText(v)]));
  return value;
}

/** URL-safe: lowercase ASCII words joined by dashes, accents folded, at most 80 chars. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = slug.length > 80 ? slug.slice(0, 80).replace(/-[^-]*$/, '') : slug;
  return cut || 'article';
}

/** Words a reader sees: markdown syntax, link targets, code fences and JSX tags left out. */
export function countWords(markdown: string): number {
  const text = markdown
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/&#?\w+;/g, ' ');
  return (text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? []).length;
}

import {
  coverSitePath,
  type ActiveArticle,
  type Cover,
  type Generation,
} from '../../../domain/articles/article.ts';
import {
  buildMdx,
  countWords,
  parseMdx,
  slugify,
  type ArticleFrontmatter,
} from '../../../mdx/mdx.ts';
import { assertInertMdx } from '../../../mdx/mdxGate.ts';
import { codeInField, neutraliseMdx, type Neutralised } from '../../../mdx/neutralise.ts';
import type { Draft } from '../../../integrations/llm/writer.ts';
import type { ActiveProject } from '../../../domain/projects/project.ts';
import { brandNameOf } from '../brand/brandInput.ts';
import type { Claim, QualityCheck } from '../../../domain/articles/quality.ts';
import { onSiteLinks, qualityChecks, recordedClaims } from './quality.ts';

/** The cover of an article: drawn on demand from the brand's palette and style, so the event stays small. */
export function coverFor(project: ActiveProject, title: string): Cover | null {
  if (!project.settings.covers.enabled || !project.brand) return null;
  const { palette, coverStyle } = project.brand;
  return {
    title,
    palette: {
      primary: palette.primary,
      accent: palette.accent,
      background: palette.background,
      text: palette.text,
    },
    style: { mood: coverStyle.mood, shapes: coverStyle.shapes, typography: coverStyle.typography },
  };
}

export type BuiltDraft = {
  mdx: string;
  slug: string;
  title: string;
  wordCount: number;
  cover: Cover | null;
  neutralised: Neutralised[];
  claims: Claim[];
  checks: QualityCheck[];
};

/**
 * The article file: gray-matter frontmatter and the body. A refresh keeps the published slug and
 * date (the URL must not change) and adds `updated`. The model's body is made inert
 * (docs/mdx-safety.md), its links off the site become plain text, the whole file must pass the
 * MDX gate, or this throws, and the quality gate's checks are computed on it (docs/content-quality.md).
 */
export function buildDraft(input: {
  article: ActiveArticle;
  project: ActiveProject;
  draft: Draft;
  generation: Generation;
  purpose: 'write' | 'refresh';
  at: string;
}): BuiltDraft {
  const { article, project, draft, generation, purpose, at } = input;
  const replaced = purpose === 'refresh' && article.mdx ? parseMdx(article.mdx) : null;
  const previous = replaced?.frontmatter ?? null;
  const inert = neutraliseMdx(draft.body, replaced?.body ?? null);
  const body = { ...inert, ...onSiteLinks(inert.text, project) };
  const neutralised = [
    ...body.neutralised,
    ...codeInField(draft.title, 'title'),
    ...codeInField(draft.description, 'description'),
  ];
  const slug = previous?.slug ?? article.slug ?? slugify(draft.title);
  const cover = coverFor(project, draft.title);
  const brand = brandNameOf(project);
  const frontmatter: ArticleFrontmatter = {
    ...(previous ?? {}),
    title: draft.title,
    description: draft.description,
    slug,
    date: previous?.date ?? at.slice(0, 10),
    ...(previous ? { updated: at.slice(0, 10) } : {}),
    keyword: article.keyword ?? '',
    tags: draft.tags,
    ...(cover ? { cover: coverSitePath(slug) } : {}),
    author: brand,
    brand,
    generator: {
      provider: generation.provider === 'openai' ? 'openai' : 'offline',
      model: generation.model ?? 'unknown',
    },
    kind: draft.kind,
  };
  if (!cover) delete frontmatter.cover;
  if (!draft.kind) delete frontmatter.kind; // a model's refresh of a brief is an article
  const mdx = buildMdx(frontmatter, body.text);
  assertInertMdx(mdx, replaced ? article.mdx : null);
  const claims = recordedClaims(draft.claims ?? []);
  const checks = qualityChecks({
    article,
    project,
    mdx,
    title: draft.title,
    claims,
    removedLinks: body.removed,
    neutralised,
  });
  return {
    mdx,
    slug,
    title: draft.title,
    wordCount: countWords(body.text),
    cover,
    neutralised,
    claims,
    checks,
  };
}

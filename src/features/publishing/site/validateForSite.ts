import { posix } from 'node:path';
import matter from 'gray-matter';
import { parse as parseToml, TomlDate } from 'smol-toml';
import type { FieldRule, LearnedProfile } from '../../../domain/integrations/contentProfile.ts';
import { MATTER_OPTIONS } from '../../../mdx/mdx.ts';
import { parseMarkdownTree, parseMdxTree } from '../../../mdx/mdxSyntax.ts';
import { dayPattern } from './frontmatterText.ts';
import { EXCERPT_SEPARATORS } from './inertForEngine.ts';
import { fieldProblem, fileProblem, type SiteProblem } from './siteFile.ts';

type Parsed = { data: Record<string, unknown>; raw: Map<string, string>; body: string };

/** The frontmatter block and body of a post written in `format`; throws on a file that has none. */
function splitPost(content: string, format: LearnedProfile['frontmatterFormat']): Parsed {
  if (format === 'json') {
    const end = content.indexOf('\n}\n');
    if (!content.startsWith('{\n') || end === -1) throw new Error('no JSON frontmatter object');
    const data = JSON.parse(content.slice(0, end + 2)) as Record<string, unknown>;
    return { data, raw: new Map(), body: content.slice(end + 3) };
  }
  const fence = format === 'toml' ? '+++' : '---';
  const end = content.indexOf(`\n${fence}\n`, fence.length);
  if (!content.startsWith(`${fence}\n`) || end === -1)
    throw new Error(`no ${format.toUpperCase()} frontmatter between ${fence} lines`);
  const block = content.slice(fence.length + 1, end + 1);
  const body = content.slice(end + fence.length + 2);
  const raw = new Map<string, string>();
  for (const line of block.split('\n')) {
    const match = line.match(/^"?([^"=:\s]+)"?\s*[:=]\s*(.*)$/);
    if (match) raw.set(match[1], match[2].trim());
  }
  if (format === 'toml') return { data: parseToml(block) as Record<string, unknown>, raw, body };
  const data = matter(`---\n${block}---\n`, MATTER_OPTIONS).data as Record<string, unknown>;
  return { data, raw, body };
}

/** The body of a post written in the site's shape (after its frontmatter); the whole text when it has none it can read. */
export function siteFileBody(content: string, format: LearnedProfile['frontmatterFormat']): string {
  try {
    return splitPost(content, format).body.replace(/^\n+/, '');
  } catch {
    return content;
  }
}

const isDayText = (text: string | undefined): boolean => !!text && /^\d{4}-\d{2}-\d{2}$/.test(text);

/** Why a value does not have the rule's type, or null. */
function typeProblem(
  rule: FieldRule,
  value: unknown,
  raw: string | undefined,
  profile: LearnedProfile,
): string | null {
  const strings = (list: unknown): list is string[] =>
    Array.isArray(list) && list.every((item) => typeof item === 'string');
  switch (rule.type) {
    case 'string':
      if (typeof value !== 'string') return 'a text';
      if (
        rule.format &&
        /Y{2,4}|M{1,4}|D{1,2}/.test(rule.format) &&
        !dayPattern(rule.format).test(value)
      )
        return `a date written as ${JSON.stringify(rule.format)}`;
      return null;
    case 'number':
      return typeof value === 'number' ? null : 'a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'date':
      if (value instanceof TomlDate) return value.isDate() ? null : 'a date (YYYY-MM-DD)';
      if (profile.frontmatterFormat === 'json')
        return isDayText(value as string) ? null : 'a date (YYYY-MM-DD)';
      return value instanceof Date && isDayText(raw) ? null : 'a date (YYYY-MM-DD)';
    case 'datetime':
      if (value instanceof TomlDate)
        return value.isDate() || value.isTime() ? 'a date and time' : null;
      if (profile.frontmatterFormat === 'json')
        return typeof value === 'string' && !Number.isNaN(Date.parse(value))
          ? null
          : 'a date and time';
      return value instanceof Date ? null : 'a date and time';
    case 'string[]':
      return strings(value) ? null : 'a list of texts';
    case 'image':
      return typeof value === 'string' && value.length > 0 ? null : 'an image path';
    case 'reference':
      if (rule.role === 'authors')
        return profile.vocabulary.authors.some((author) => author.key === value)
          ? null
          : `one of the authors ${profile.vocabulary.authors.map((author) => author.key).join(', ')}`;
      return typeof value === 'string' ? null : 'a key';
    case 'reference[]': {
      if (!strings(value)) return 'a list of keys';
      const known =
        rule.role === 'authors'
          ? profile.vocabulary.authors.map((author) => author.key)
          : rule.role === 'tags'
            ? profile.vocabulary.tags
            : null;
      const unknown = known ? value.filter((item) => !known.includes(item)) : [];
      return unknown.length ? `keys the site defines (not ${unknown.join(', ')})` : null;
    }
    case 'object': {
      if (!value || typeof value !== 'object' || Array.isArray(value))
        return `an object ${rule.format ?? ''}`.trim();
      return null;
    }
    default:
      return null;
  }
}

/** Where an image reference in the frontmatter points, as a repository path (null: a site URL). */
function imageFile(reference: string, postPath: string): string | null {
  if (reference.startsWith('/') || /^[a-z]+:/i.test(reference)) return null;
  return posix.normalize(posix.join(posix.dirname(postPath), reference));
}

/**
 * The post checked against the site's profile before any commit (docs/publishing.md): every
 * required field present, each field's type, enum values and date format as the site declares
 * them, covers that point at a committed file, and the body's syntax for the extension (MDX sites:
 * it parses as MDX; others: CommonMark with no raw HTML or JSX). Pure.
 */
export function validateForSite(
  post: { path: string; content: string },
  profile: LearnedProfile,
  committedPaths: readonly string[] = [],
): SiteProblem[] {
  let parsed: Parsed;
  try {
    parsed = splitPost(post.content, profile.frontmatterFormat);
  } catch (error) {
    return [
      fileProblem(
        `${profile.frontmatterFormat.toUpperCase()} frontmatter`,
        `${post.path} has no readable frontmatter (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
      ),
    ];
  }
  const problems: SiteProblem[] = [];
  for (const rule of profile.fields) {
    const value = parsed.data[rule.name];
    if (value === undefined || value === null) {
      if (rule.required) problems.push(fieldProblem(rule, `a ${rule.type}`, 'is required'));
      continue;
    }
    const expected = typeProblem(rule, value, parsed.raw.get(rule.name), profile);
    if (expected) {
      problems.push(fieldProblem(rule, expected, `must be ${expected}, as declared`));
      continue;
    }
    if (rule.values && !(typeof value === 'string' && rule.values.includes(value)))
      problems.push(
        fieldProblem(
          rule,
          `one of ${rule.values.join(', ')}`,
          `must be one of ${rule.values.join(', ')}, as declared`,
        ),
      );
    const reference =
      rule.role === 'cover'
        ? typeof value === 'string'
          ? value
          : Object.values(value as Record<string, unknown>).find(
              (item): item is string =>
                typeof item === 'string' && /\.(png|jpe?g|webp|gif|svg|avif)$/i.test(item),
            )
        : undefined;
    const file = reference ? imageFile(reference, post.path) : null;
    if (file && committedPaths.length && !committedPaths.includes(file))
      problems.push(
        fieldProblem(
          rule,
          'an image committed with the post',
          `points at ${file}, which is not committed, but an image is expected`,
        ),
      );
  }
  problems.push(...syntaxProblems(parsed.body, profile, post.path));
  return problems;
}

function syntaxProblems(body: string, profile: LearnedProfile, path: string): SiteProblem[] {
  const separator = profile.excerptSeparator;
  const lines = body
    .split('\n')
    .filter(
      (line) => !separator || line.trim() !== separator || !EXCERPT_SEPARATORS.includes(separator),
    );
  const text = lines.join('\n');
  if (profile.templateEngine === 'mdx') {
    try {
      parseMdxTree(text);
      return [];
    } catch (error) {
      return [
        fileProblem(
          'valid MDX',
          `${path} is not valid MDX (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
        ),
      ];
    }
  }
  const tree = parseMarkdownTree(text);
  const html: string[] = [];
  const visit = (node: { type: string; value?: string; children?: unknown[] }) => {
    if (node.type === 'html' && node.value) html.push(node.value);
    for (const child of node.children ?? []) visit(child as typeof node);
  };
  visit(tree);
  return html.length
    ? [
        fileProblem(
          `CommonMark without raw HTML or JSX`,
          `${path} would carry raw HTML (${JSON.stringify(html[0].slice(0, 40))}) that a .${profile.extension} file shows as markup`,
        ),
      ]
    : [];
}

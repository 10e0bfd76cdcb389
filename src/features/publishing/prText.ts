import type { ActiveArticle, DiffStats, RevisionSource } from '../../domain/articles/article.ts';
import { parseMdx } from '../../mdx/mdx.ts';
import { oneLine } from '../../core/oneLine.ts';
import { searchBeforeSection, type RecordedMetrics } from '../searchAnalytics/refreshContext.ts';
import { codeSpan, markdownLink, markdownText } from './markdown.ts';
import { qualitySection } from './qualityText.ts';
import { buildSection } from './build/buildText.ts';

/**
 * What people read on GitHub: pull request titles and descriptions, commit messages, and the
 * answer to a comment. Every text Inkstream posts carries an HTML-comment marker, so its own
 * comments are never taken for revision requests and a re-run can find what it already posted.
 * Outside text (titles, keywords, summaries, sources, instructions) is placed one line at a time,
 * without control characters (./markdown.ts, ../core/oneLine.ts): it never starts a commit
 * trailer, a Markdown block, HTML or an Inkstream marker.
 */
export const INKSTREAM_MARKER = '<!-- inkstream';
export const revisionMarker = (revisionId: string): string =>
  `${INKSTREAM_MARKER}:revision:${revisionId} -->`;

type Purpose = 'publish' | 'refresh';

/** GitHub cuts pull request titles at 256 characters; commit subjects read best short. */
const TITLE_IN_PR = 200;
const TITLE_IN_SUBJECT = 100;
const SUMMARY_IN_SUBJECT = 60;
const SUMMARY = 1000;
const CELL = 300;

/** The offline writer's brief (frontmatter `kind: brief`): material for a writer, not an article. */
export function isBrief(mdx: string | null): boolean {
  if (!mdx) return false;
  try {
    return parseMdx(mdx).frontmatter.kind === 'brief';
  } catch {
    return false;
  }
}

const kindOf = (article: ActiveArticle): string =>
  isBrief(article.mdx) ? 'article brief' : 'article';

export const prTitle = (article: ActiveArticle, purpose: Purpose): string =>
  `${purpose === 'refresh' ? 'Refresh' : 'New'} ${kindOf(article)}: ${oneLine(article.title, TITLE_IN_PR)}`;

export const commitMessage = (article: ActiveArticle, purpose: Purpose): string =>
  `${purpose === 'refresh' ? 'Refresh' : 'Add'} ${kindOf(article)} "${oneLine(article.title, TITLE_IN_SUBJECT)}"\n\nInkstream-Article: ${article.id}`;

export const revisionCommitMessage = (
  article: ActiveArticle,
  revisionId: string,
  summary: string,
): string =>
  `Revise "${oneLine(article.title, TITLE_IN_SUBJECT)}": ${oneLine(summary, SUMMARY_IN_SUBJECT)}\n\n${oneLine(summary, SUMMARY)}\n\nInkstream-Article: ${article.id}\nInkstream-Revision: ${revisionId}`;

/** A code span in a table cell: GFM splits cells at every unescaped `|`, even inside code. */
const cellCode = (text: string) => codeSpan(text, CELL).replace(/\|/g, '\\|');

function descriptionOf(mdx: string | null): string | null {
  if (!mdx) return null;
  try {
    return parseMdx(mdx).frontmatter.description || null;
  } catch {
    return null;
  }
}

export function prBody(input: {
  article: ActiveArticle;
  purpose: Purpose;
  path: string;
  coverPath: string | null;
  wordCount: number | null;
  generator: string | null;
  /** A refresh quotes the article's search figures from before it. */
  search?: RecordedMetrics | null;
}): string {
  const { article, purpose, path, coverPath } = input;
  const description = descriptionOf(article.mdx);
  const title = markdownText(article.title, TITLE_IN_PR);
  const rows = [
    ['Keyword', article.keyword ? cellCode(article.keyword) : '—'],
    ['File', cellCode(path)],
    ...(coverPath ? [['Cover image', cellCode(coverPath)]] : []),
    ...(input.wordCount ? [['Length', `${input.wordCount} words`]] : []),
    ...(input.generator ? [['Written by', markdownText(input.generator, CELL)]] : []),
    ['Inkstream article', cellCode(article.id)],
  ];
  const sources = article.sources.length
    ? article.sources
        .map((source) => `- ${markdownLink(source.title, source.url, CELL)}`)
        .join('\n')
    : '_No sources were recorded for this article._';
  const intro = isBrief(article.mdx)
    ? `Inkstream wrote a **brief** for ${purpose === 'refresh' ? 'a refresh of the published article' : 'a new article'} **${title}**, not the article itself: no language model is configured on the Inkstream server (OPENAI_API_KEY is not set). The file holds the keyword, a suggested outline, what the site says with the URL of each excerpt, the company facts and pages to link to. Write the article on this branch before merging; Inkstream keeps edits made here when it revises.`
    : purpose === 'refresh'
      ? `Inkstream refreshed the published article **${title}**: facts and dates checked again, weak sections improved. Its URL does not change.`
      : `Inkstream wrote a new article for the site: **${title}**.`;
  return [
    `${INKSTREAM_MARKER}:article:${article.id} -->`,
    intro,
    ...(description ? ['', `> ${markdownText(description, SUMMARY)}`] : []),
    '',
    '| | |',
    '|---|---|',
    ...rows.map(([name, value]) => `| ${name} | ${value} |`),
    ...(purpose === 'refresh' && input.search ? ['', ...searchBeforeSection(input.search)] : []),
    ...(article.checks.length ? ['', ...qualitySection(article.checks)] : []),
    ...(article.build ? ['', ...buildSection(article.build)] : []),
    '',
    '### Sources',
    sources,
    '',
    '### Revise it by commenting',
    'Every comment on this pull request (in the conversation, or on a line of the file) becomes a revision: Inkstream revises the article with your comment as the instruction, commits the new version to this branch and answers with a summary of what changed.',
    '',
    'Merge to publish. Close without merging to drop the article.',
  ].join('\n');
}

export function revisionComment(input: {
  revisionId: string;
  instruction: string;
  source: RevisionSource;
  summary: string;
  diff: DiffStats;
  version: number;
  commitSha: string;
  committed: boolean;
}): string {
  const { source, summary, diff, version, commitSha } = input;
  const who =
    source.kind === 'github'
      ? `@${source.login} asked`
      : 'A revision was requested through the API';
  const quoted = input.instruction
    .split('\n')
    .map((line) => `> ${markdownText(line, SUMMARY)}`)
    .join('\n');
  const commit = input.committed
    ? `committed as ${commitSha.slice(0, 7)}`
    : `already on this branch at ${commitSha.slice(0, 7)}`;
  return [
    revisionMarker(input.revisionId),
    `${who}:`,
    '',
    quoted,
    '',
    `**Revised** (version ${version}, ${commit}): ${markdownText(summary, SUMMARY)}`,
    '',
    `+${diff.addedLines} / −${diff.removedLines} lines, +${diff.addedWords} / −${diff.removedWords} words.`,
  ].join('\n');
}

/** The answer to a revision that was not applied: the request, and the reason the article shows. */
export function revisionRefusedComment(input: {
  revisionId: string;
  instruction: string;
  source: RevisionSource;
  reason: string;
}): string {
  const who =
    input.source.kind === 'github'
      ? `@${input.source.login} asked`
      : 'A revision was requested through the API';
  const quoted = input.instruction
    .split('\n')
    .map((line) => `> ${markdownText(line, SUMMARY)}`)
    .join('\n');
  return [
    revisionMarker(input.revisionId),
    `${who}:`,
    '',
    quoted,
    '',
    `**Not applied**, nothing was committed: ${markdownText(input.reason, SUMMARY)}`,
  ].join('\n');
}

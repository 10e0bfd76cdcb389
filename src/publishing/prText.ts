import type { ActiveArticle, DiffStats, RevisionSource } from '../articles/article.ts';
import { parseMdx } from '../articles/mdx.ts';
import { searchBeforeSection, type RecordedMetrics } from '../searchAnalytics/refreshContext.ts';

/**
 * What people read on GitHub: pull request titles and descriptions, commit messages, and the
 * answer to a comment. Every text Inkstream posts carries an HTML-comment marker, so its own
 * comments are never taken for revision requests and a re-run can find what it already posted.
 */
export const INKSTREAM_MARKER = '<!-- inkstream';
export const revisionMarker = (revisionId: string): string => `${INKSTREAM_MARKER}:revision:${revisionId} -->`;

type Purpose = 'publish' | 'refresh';

export const prTitle = (article: ActiveArticle, purpose: Purpose): string =>
  `${purpose === 'refresh' ? 'Refresh article' : 'New article'}: ${article.title}`;

export const commitMessage = (article: ActiveArticle, purpose: Purpose): string =>
  `${purpose === 'refresh' ? 'Refresh' : 'Add'} article "${article.title}"\n\nInkstream-Article: ${article.id}`;

export const revisionCommitMessage = (article: ActiveArticle, revisionId: string, summary: string): string =>
  `Revise "${article.title}": ${oneLine(summary, 60)}\n\n${summary}\n\nInkstream-Article: ${article.id}\nInkstream-Revision: ${revisionId}`;

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function descriptionOf(mdx: string | null): string | null {
  if (!mdx) return null;
  try {
    return parseMdx(mdx).frontmatter.description || null;
  } catch {
    return null;
  }
}

export function prBody(input: {
  article: ActiveArticle; purpose: Purpose; path: string; coverPath: string | null; wordCount: number | null; generator: string | null;
  /** A refresh quotes the article's search figures from before it. */
  search?: RecordedMetrics | null;
}): string {
  const { article, purpose, path, coverPath } = input;
  const description = descriptionOf(article.mdx);
  const rows = [
    ['Keyword', article.keyword ? `\`${article.keyword}\`` : '—'],
    ['File', `\`${path}\``],
    ...(coverPath ? [['Cover image', `\`${coverPath}\``]] : []),
    ...(input.wordCount ? [['Length', `${input.wordCount} words`]] : []),
    ...(input.generator ? [['Written by', input.generator]] : []),
    ['Inkstream article', `\`${article.id}\``],
  ];
  const sources = article.sources.length
    ? article.sources.map((source) => `- [${source.title.replace(/[[\]]/g, '')}](${source.url})`).join('\n')
    : '_No sources were recorded for this article._';
  const intro = purpose === 'refresh'
    ? `Inkstream refreshed the published article **${article.title}**: facts and dates checked again, weak sections improved. Its URL does not change.`
    : `Inkstream wrote a new article for the site: **${article.title}**.`;
  return [
    `${INKSTREAM_MARKER}:article:${article.id} -->`,
    intro,
    ...(description ? ['', `> ${description}`] : []),
    '',
    '| | |',
    '|---|---|',
    ...rows.map(([name, value]) => `| ${name} | ${escapeCell(value)} |`),
    ...(purpose === 'refresh' && input.search ? ['', ...searchBeforeSection(input.search)] : []),
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
  revisionId: string; instruction: string; source: RevisionSource; summary: string; diff: DiffStats; version: number; commitSha: string; committed: boolean;
}): string {
  const { source, summary, diff, version, commitSha } = input;
  const who = source.kind === 'github' ? `@${source.login} asked` : 'A revision was requested through the API';
  const quoted = input.instruction.split('\n').map((line) => `> ${line}`).join('\n');
  const commit = input.committed ? `committed as ${commitSha.slice(0, 7)}` : `already on this branch at ${commitSha.slice(0, 7)}`;
  return [
    revisionMarker(input.revisionId),
    `${who}:`,
    '',
    quoted,
    '',
    `**Revised** (version ${version}, ${commit}): ${summary}`,
    '',
    `+${diff.addedLines} / −${diff.removedLines} lines, +${diff.addedWords} / −${diff.removedWords} words.`,
  ].join('\n');
}

import { oneLine } from '../../core/oneLine.ts';

/**
 * Outside text in the Markdown Inkstream posts on GitHub (pull request descriptions, answers to
 * comments): it reads as the text it is, on one line, and never becomes a heading, a link, an
 * image, HTML (or an `<!-- inkstream` marker), or breaks out of its table row.
 */

/**
 * CommonMark lets any ASCII punctuation be backslash-escaped. These have a meaning anywhere in a
 * line (emphasis, code, links, images, HTML, entities, table cells); `#`, `+`, `-` and `1.` only
 * at its start (headings, lists), where a description quoted after `> ` lands.
 */
const INLINE = /[\\`*_{}[\]()<>|~&]/g;
const LINE_START = /^([#+-]|\d+[.)])/;

/** One line of escaped inline text, at most `max` characters before escaping. */
export const markdownText = (text: string, max: number): string =>
  oneLine(text, max)
    .replace(INLINE, (char) => `\\${char}`)
    .replace(LINE_START, (start) => `${start.slice(0, -1)}\\${start.slice(-1)}`);

/** A code span whose fence is longer than any run of backticks inside it, so the text cannot close it. */
export function codeSpan(text: string, max: number): string {
  const line = oneLine(text, max);
  const longestRun = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = longestRun > 0 ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** A link to an http(s) URL with `(`, `)` and spaces percent-encoded; any other URL is shown as text, not linked. */
export function markdownLink(text: string, url: string, max: number): string {
  const label = markdownText(text, max) || markdownText(url, max);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return label;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return label;
  const destination = parsed.href.replace(
    /[()<>\s`\\]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return `[${label}](${destination})`;
}

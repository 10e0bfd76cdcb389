/**
 * The article body as the checks read it: headings, paragraphs (list items and quotes included)
 * and their sentences, each with its offsets in the body, so a finding can be highlighted in place.
 * Code blocks, tables, HTML-looking lines and link definitions are not prose and are skipped.
 */
export type Span = { text: string; start: number; end: number };
export type Heading = Span & { depth: number; title: string };
export type BodyText = { headings: Heading[]; paragraphs: Span[]; sentences: Span[] };

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const NOT_PROSE = /^\s*(\||<|\[[^\]]+\]:\s)/;
const FENCE = /^\s*(```|~~~)/;
const MARKER = /^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)*/;

export function bodyText(body: string): BodyText {
  const headings: Heading[] = [];
  const paragraphs: Span[] = [];
  const sentences: Span[] = [];
  let inFence = false;
  let paragraph: Span | null = null;
  const close = () => {
    if (paragraph) paragraphs.push(paragraph);
    paragraph = null;
  };
  let offset = 0;
  for (const line of body.split('\n')) {
    const lineStart = offset;
    offset += line.length + 1;
    if (FENCE.test(line)) {
      inFence = !inFence;
      close();
      continue;
    }
    if (inFence || line.trim() === '' || NOT_PROSE.test(line)) {
      close();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      close();
      headings.push({
        text: line,
        start: lineStart,
        end: lineStart + line.length,
        depth: heading[1].length,
        title: heading[2],
      });
      continue;
    }
    const marker = MARKER.exec(line)?.[0] ?? '';
    if (marker.trim()) close(); // every list item or quoted line starts its own paragraph
    const start = lineStart + marker.length;
    const text = line.slice(marker.length);
    sentences.push(...sentenceSpans(text, start));
    paragraph = paragraph
      ? { text: `${paragraph.text}\n${line}`, start: paragraph.start, end: lineStart + line.length }
      : { text, start, end: lineStart + line.length };
  }
  close();
  return { headings, paragraphs, sentences };
}

/** Sentences end at . ! ? (or …) followed by a space and a capital, a digit or a quote. */
const SENTENCE_END = /[.!?…]["”’)]*\s+(?=[\p{Lu}\p{N}"“‘(*_[])/gu;

export function sentenceSpans(text: string, start: number): Span[] {
  const spans: Span[] = [];
  let from = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].trimEnd().length;
    if (!isAbbreviation(text.slice(from, end))) {
      pushTrimmed(spans, text, from, end, start);
      from = match.index + match[0].length;
    }
  }
  pushTrimmed(spans, text, from, text.length, start);
  return spans;
}

const isAbbreviation = (sentence: string): boolean =>
  /\b(?:e\.g|i\.e|etc|vs|Dr|Mr|Mrs|Ms|St|No)\.$/.test(sentence);

function pushTrimmed(spans: Span[], text: string, from: number, to: number, base: number): void {
  const raw = text.slice(from, to);
  const lead = raw.length - raw.trimStart().length;
  const trimmed = raw.trim();
  if (trimmed)
    spans.push({
      text: trimmed,
      start: base + from + lead,
      end: base + from + lead + trimmed.length,
    });
}

/** What a reader sees of a markdown span: link text without its destination, no emphasis or escapes. */
export const visibleText = (markdown: string): string =>
  markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<(https?:[^>]+)>/g, '$1')
    .replace(/\\(.)/g, '$1')
    .replace(/[*_`]+/g, '');

/** Lowercase, one kind of quote and dash, whitespace collapsed: how passages are compared. */
export const normalise = (text: string): string =>
  visibleText(text)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’‛`´]/g, "'")
    .replace(/[“”„]/g, '"')
    .replace(/[‐‑‒–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();

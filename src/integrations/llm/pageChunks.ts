import type { PageInput } from './writer.ts';

/** A piece of one page under one heading: what a section of an article can draw on. */
export type PageChunk = {
  url: string;
  pageTitle: string;
  /** The headings above it, outermost first ("Costs › Why split costs"). */
  headings: string[];
  /** Markdown, starting with its own heading line when it has one. */
  text: string;
};

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A page's Markdown cut at its headings, each chunk at most `maxChars` (a long section is cut
 * again at paragraphs, then lines, then words). Text crawled before extraction kept headings is
 * one block a line, and is cut at lines.
 */
export function chunksOf(page: PageInput, maxChars: number): PageChunk[] {
  const chunks: PageChunk[] = [];
  const path: Array<{ level: number; text: string }> = [];
  let lines: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    const text = lines.join('\n').trim();
    lines = [];
    if (!text) return;
    const headings = path.map((heading) => heading.text);
    for (const piece of pieces(text, maxChars))
      chunks.push({ url: page.url, pageTitle: page.title, headings, text: piece });
  };
  for (const line of page.text.split('\n')) {
    const fenceMark = FENCE.exec(line)?.[1];
    if (fenceMark)
      fence = fence === null ? fenceMark[0] : line.trimStart().startsWith(fence) ? null : fence;
    const heading = fence === null ? HEADING.exec(line) : null;
    if (heading) {
      flush();
      const level = heading[1].length;
      while (path.length > 0 && path[path.length - 1].level >= level) path.pop();
      path.push({ level, text: heading[2] });
    }
    lines.push(line);
  }
  flush();
  return chunks;
}

/** Consecutive blocks joined while they fit; a block too long on its own is cut at lines, then words. */
function pieces(text: string, maxChars: number): string[] {
  const out: string[] = [];
  let current = '';
  const push = (block: string, joint: string) => {
    if (current && current.length + joint.length + block.length > maxChars) {
      out.push(current);
      current = '';
    }
    current = current ? `${current}${joint}${block}` : block;
  };
  for (const block of text.split(/\n\s*\n/)) {
    if (block.length <= maxChars) push(block, '\n\n');
    else
      for (const line of block.split('\n'))
        for (const part of words(line, maxChars)) push(part, '\n');
  }
  if (current) out.push(current);
  return out;
}

function words(line: string, maxChars: number): string[] {
  const out: string[] = [];
  let rest = line;
  while (rest.length > maxChars) {
    const space = rest.lastIndexOf(' ', maxChars);
    const end = space > maxChars / 2 ? space : maxChars;
    out.push(rest.slice(0, end));
    rest = rest.slice(end).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}

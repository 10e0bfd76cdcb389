import type { Nodes } from 'mdast';
import { parseMarkdownTree } from '../../mdx/mdxSyntax.ts';

const plain = (node: Nodes): string =>
  'value' in node ? node.value : 'children' in node ? node.children.map(plain).join('') : '';

/**
 * The prose of a page's text as plain sentences' worth of paragraphs (list items included),
 * Markdown escapes decoded; headings and tables are left out, so a heading never runs into the
 * paragraph after it. Text crawled before pages were kept as Markdown is one block a line.
 */
export function paragraphsOf(text: string): string[] {
  const cached = recent.get(text);
  if (cached) return cached;
  const found = parse(text);
  if (recent.size >= RECENT_PAGES) recent.delete(recent.keys().next().value!);
  recent.set(text, found);
  return found;
}

/** The offline writer reads the same pages for every step of every article: each is parsed once. */
const RECENT_PAGES = 200;
const recent = new Map<string, string[]>();

function parse(text: string): string[] {
  const blocks = text.includes('\n\n') ? [text] : text.split('\n');
  const out: string[] = [];
  const walk = (node: Nodes) => {
    if (node.type === 'paragraph') {
      const value = plain(node).replace(/\s+/g, ' ').trim();
      if (value) out.push(value);
    } else if ('children' in node && node.type !== 'heading' && node.type !== 'table')
      node.children.forEach(walk);
  };
  for (const block of blocks) if (block.trim()) walk(parseMarkdownTree(block));
  return out;
}

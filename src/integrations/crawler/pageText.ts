import type { AnyNode } from 'domhandler';

const blockTags = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

/** Collapses runs of whitespace inside a line and trims it. */
export const cleanLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The readable text under some nodes, one block per line: block elements end a line, so a
 * heading never runs into the paragraph after it (sentence splitting relies on that).
 */
export function blockText(nodes: readonly AnyNode[], maxChars = 30_000): string {
  const parts: string[] = [];
  const walk = (node: AnyNode) => {
    if (node.type === 'text') {
      parts.push(node.data);
      return;
    }
    if (node.type !== 'tag') return; // comments, scripts, styles, directives carry no prose
    const block = blockTags.has(node.name);
    if (block) parts.push('\n');
    node.children.forEach(walk);
    if (block) parts.push('\n');
  };
  nodes.forEach(walk);
  const lines = parts.join('').split('\n').map(cleanLine).filter(Boolean);
  return lines.join('\n').slice(0, maxChars);
}

import type { Definition, Link, LinkReference, Nodes, PhrasingContent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { gfm } from 'micromark-extension-gfm';
import { mdxjs } from 'micromark-extension-mdxjs';
import { mdxText, serializeMdx } from './mdxSyntax.ts';

/** A link taken out of a body: where it led and the text that stays in its place. */
export type RemovedLink = { url: string; text: string };

export type UnlinkedText = { text: string; removed: RemovedLink[] };

/** MDX as a site with GFM reads it: a bare `https://…` is a link there too. */
const parseWithLinks = (markdown: string): Root =>
  fromMarkdown(markdown, { extensions: [mdxjs(), gfm()], mdastExtensions: [mdxFromMarkdown(), gfmFromMarkdown()] });

type Edit = { start: number; end: number; replacement: string };

/**
 * Inert MDX with every link `allowed` refuses turned into plain text in place: a link keeps its
 * text, a bare URL stays as escaped text a site does not link, a reference link keeps its text and
 * its definition goes. Everything else in the body is left byte for byte.
 */
export function unlinkExcept(markdown: string, allowed: (url: string) => boolean): UnlinkedText {
  let tree: Root;
  try {
    tree = parseWithLinks(markdown);
  } catch {
    return { text: markdown, removed: [] }; // inert MDX always parses; anything else is left to the MDX gate
  }
  const definitions = new Map<string, Definition>();
  visit(tree, (node) => { if (node.type === 'definition') definitions.set(node.identifier, node); });
  const edits: Edit[] = [];
  const removed: RemovedLink[] = [];
  const refused = new Set<string>();
  visit(tree, (node) => {
    if (node.type !== 'link' && node.type !== 'linkReference') return;
    const url = node.type === 'link' ? node.url : definitions.get(node.identifier)?.url;
    if (url === undefined || allowed(url)) return;
    if (node.type === 'linkReference') refused.add(node.identifier);
    const text = toString(node);
    removed.push({ url, text });
    edits.push({ ...span(node), replacement: plain(node) });
  });
  for (const [identifier, definition] of definitions) if (refused.has(identifier) || !allowed(definition.url)) edits.push({ ...span(definition), replacement: '' });
  let text = markdown;
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = `${text.slice(0, edit.start)}${edit.replacement}${text.slice(edit.end)}`;
  return { text, removed };
}

const span = (node: Nodes) => ({ start: node.position!.start.offset!, end: node.position!.end.offset! });

/**
 * GFM links a URL or an e-mail address found in any text, escaped or not (it reads text after
 * escapes are resolved), so such text is kept as inline code: shown as written, never a link.
 */
const AUTOLINKED = /https?:\/\/|www\.|[\w.+-]+@[\w-]+\./i;

/** The link's own text as MDX text: its children serialized (emphasis kept), nothing that links. */
function plain(node: Link | LinkReference): string {
  const text = toString(node);
  if (AUTOLINKED.test(text)) return inline([{ type: 'inlineCode', value: text }]);
  const children: PhrasingContent[] = node.children.some((child) => child.type === 'link') ? [{ type: 'text', value: text }] : node.children;
  if (children.length === 1 && children[0].type === 'text') return mdxText(children[0].value);
  return inline(children);
}

const inline = (children: PhrasingContent[]): string => serializeMdx({ type: 'root', children: [{ type: 'paragraph', children }] }).replace(/\n$/, '');

/** The text a reader sees in a node. */
const toString = (node: Nodes): string =>
  'value' in node && typeof node.value === 'string' ? node.value : 'children' in node ? node.children.map((child) => toString(child as Nodes)).join('') : '';

function visit(node: Nodes, enter: (node: Nodes) => void): void {
  enter(node);
  if ('children' in node) for (const child of node.children) visit(child as Nodes, enter);
}

import type { Definition, Link, LinkReference, Nodes, Parent, PhrasingContent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { gfm } from 'micromark-extension-gfm';
import { mdxjs } from 'micromark-extension-mdxjs';
import { serializeMdx } from './mdxSyntax.ts';
import { codeOfText, neutraliseMdx } from './neutralise.ts';

/** A link taken out of a body: where it led and the text that stays in its place. */
export type RemovedLink = { url: string; text: string };

export type UnlinkedText = { text: string; removed: RemovedLink[] };

/** MDX as a site with GFM reads it: a bare `https://…` is a link there too. */
const parseWithLinks = (markdown: string): Root =>
  fromMarkdown(markdown, {
    extensions: [mdxjs(), gfm()],
    mdastExtensions: [mdxFromMarkdown(), gfmFromMarkdown()],
  });

type Edit = { node: Nodes; parent: Parent; replacement: PhrasingContent[] };

/**
 * Inert MDX with every link `allowed` refuses turned into plain text: a link keeps its text, a
 * bare URL stays as inline code (never linked), a reference link keeps its text and its definition
 * goes. Edits are made in place, leaving the rest of the body byte for byte; when the parser gives
 * a link no position (some GFM transforms do not), the whole tree is serialized instead.
 */
export function unlinkExcept(markdown: string, allowed: (url: string) => boolean): UnlinkedText {
  let tree: Root;
  try {
    tree = parseWithLinks(markdown);
  } catch {
    return { text: markdown, removed: [] }; // inert MDX always parses; anything else is left to the MDX gate
  }
  const definitions = new Map<string, Definition>();
  visit(tree, null, (node) => {
    if (node.type === 'definition') definitions.set(node.identifier, node);
  });
  const edits: Edit[] = [];
  const removed: RemovedLink[] = [];
  visit(tree, null, (node, parent) => {
    if (!parent) return;
    if (node.type === 'definition' && !allowed(node.url))
      edits.push({ node, parent, replacement: [] });
    if (node.type !== 'link' && node.type !== 'linkReference') return;
    const url = node.type === 'link' ? node.url : definitions.get(node.identifier)?.url;
    if (url === undefined || allowed(url)) return;
    removed.push({ url, text: toString(node) });
    edits.push({ node, parent, replacement: plain(node) });
  });
  if (edits.length === 0) return { text: markdown, removed };
  if (
    edits.every(
      (edit) =>
        edit.node.position?.start.offset !== undefined &&
        edit.node.position?.end.offset !== undefined,
    )
  ) {
    let text = markdown;
    for (const edit of edits.sort(
      (a, b) => b.node.position!.start.offset! - a.node.position!.start.offset!,
    )) {
      text = `${text.slice(0, edit.node.position!.start.offset!)}${edit.replacement.length ? inline(edit.replacement) : ''}${text.slice(edit.node.position!.end.offset!)}`;
    }
    // GFM's bare URL can end with the backslash that escaped the next character (`http://x/\<b/>`):
    // cut out, that escape is gone and MDX would read code the input did not have. Escape it again.
    const codeKept = codeOfText(text)?.length === codeOfText(markdown)?.length;
    return { text: codeKept ? text : neutraliseMdx(text, markdown).text, removed };
  }
  for (const edit of edits) {
    const children = edit.parent.children as Nodes[];
    children.splice(children.indexOf(edit.node), 1, ...edit.replacement);
  }
  return { text: serializeMdx(tree), removed };
}

/**
 * GFM links a URL or an e-mail address found in any text, escaped or not (it reads text after
 * escapes are resolved), so such text is kept as inline code: shown as written, never a link.
 */
const AUTOLINKED = /https?:\/\/|www\.|[\w.+-]+@[\w-]+\./i;

/** What stands in for a refused link: its text (emphasis kept), or inline code where GFM would link the text itself. */
function plain(node: Link | LinkReference): PhrasingContent[] {
  const text = toString(node);
  if (AUTOLINKED.test(text)) return [{ type: 'inlineCode', value: text }];
  return node.children.some((child) => child.type === 'link')
    ? [{ type: 'text', value: text }]
    : node.children;
}

const inline = (children: PhrasingContent[]): string =>
  serializeMdx({ type: 'root', children: [{ type: 'paragraph', children }] }).replace(/\n$/, '');

/** The text a reader sees in a node. */
const toString = (node: Nodes): string =>
  'value' in node && typeof node.value === 'string'
    ? node.value
    : 'children' in node
      ? node.children.map((child) => toString(child as Nodes)).join('')
      : '';

function visit(
  node: Nodes,
  parent: Parent | null,
  enter: (node: Nodes, parent: Parent | null) => void,
): void {
  enter(node, parent);
  if ('children' in node)
    for (const child of [...node.children]) visit(child as Nodes, node, enter);
}

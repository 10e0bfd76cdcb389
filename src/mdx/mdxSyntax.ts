import type { Link, PhrasingContent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { mdxFromMarkdown, mdxToMarkdown } from 'mdast-util-mdx';
import { toMarkdown, type Options, type Unsafe } from 'mdast-util-to-markdown';
import { gfm } from 'micromark-extension-gfm';
import { mdxjs } from 'micromark-extension-mdxjs';

/**
 * The one place text becomes MDX: a Markdown syntax tree serialized by mdast-util-to-markdown with
 * the MDX extension, which escapes `{`, `}`, `<` and `>` in text. The serializer does not escape
 * a line that starts with `import` or `export` (MDX reads it as JavaScript), so those two patterns
 * are added: the first letter becomes a character reference.
 */
const lineLeadingEsm: Unsafe[] = [
  { character: 'i', atBreak: true, after: 'mport(?![A-Za-z0-9_$])' },
  { character: 'e', atBreak: true, after: 'xport(?![A-Za-z0-9_$])' },
];

const serializeOptions: Options = {
  extensions: [mdxToMarkdown(), gfmToMarkdown(), { unsafe: lineLeadingEsm }],
  bullet: '-',
  emphasis: '_',
  rule: '-',
  fences: true,
  // `<https://…>` autolinks are JSX to MDX, and a bare URL is text to a site without GFM, where a `{` in it starts an expression.
  resourceLink: true,
};

/**
 * MDX as @mdx-js/mdx reads it by default, without GFM: GFM only hides text from MDX (a bare URL
 * becomes a link), so this view finds every import/export, JSX and expression any site would run.
 * Throws a VFileMessage (with `place`) on text MDX cannot parse.
 */
export const parseMdxTree = (markdown: string): Root =>
  fromMarkdown(markdown, { extensions: [mdxjs()], mdastExtensions: [mdxFromMarkdown()] });

/** Plain CommonMark + GFM, which parses any text: raw HTML comes back as `html` nodes. */
export const parseMarkdownTree = (markdown: string): Root =>
  fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

export const serializeMdx = (tree: Root): string => toMarkdown(tree, serializeOptions);

const inline = (children: PhrasingContent[]): string =>
  serializeMdx({ type: 'root', children: [{ type: 'paragraph', children }] }).replace(/\n$/, '');

/**
 * Words and sentence punctuation that mean nothing to Markdown or MDX anywhere in a line: returned
 * as they are, which spares the serializer the many short phrases the offline writer escapes.
 */
const PLAIN = /^(?!(?:import|export)(?![A-Za-z0-9_$]))\p{L}[\p{L}\p{N} ,.;:?!'’]*$/u;

/** Any text as literal MDX text: markup characters escaped, nothing MDX would run. */
export const mdxText = (text: string): string =>
  PLAIN.test(text) ? text : text ? inline([{ type: 'text', value: text }]) : '';

/**
 * Characters that end or confuse a link destination or that MDX reads as code, percent-encoded
 * (a URL means the same with them encoded).
 */
export const mdxLinkDestination = (url: string): string =>
  url.replace(
    /[\s()<>{}`\\]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );

/** `[anchor](url)` with both escaped. */
export const mdxLink = (anchor: string, url: string): string => {
  const link: Link = {
    type: 'link',
    url: mdxLinkDestination(url),
    children: [{ type: 'text', value: anchor }],
  };
  return inline([link]);
};

import type { Nodes, PhrasingContent, Root, RootContent } from 'mdast';
import type { TemplateEngine } from '../../../domain/integrations/contentProfile.ts';
import { mdxGateProblem } from '../../../mdx/mdxGate.ts';
import { parseMarkdownTree, parseMdxTree, serializeMdx } from '../../../mdx/mdxSyntax.ts';

/**
 * What Inkstream writes, made inert for the template engine the site runs over a post's Markdown
 * (docs/publishing.md, "The file each site gets"). Text is serialized from the syntax tree by the
 * MDX serializer, which writes every `{` and `<` as `\{` and `\<`: MDX runs nothing in them, and
 * CommonMark (goldmark, markdown-it, kramdown) shows them as the characters. A template engine runs
 * before Markdown and does not read backslashes (`\{%` still holds `{%`), so for Nunjucks, Liquid
 * and Hugo a `{` that would open a delimiter is written as the character reference `&#123;` in
 * text (and a Nunjucks `#}` as `&#35;}`). Code (spans and blocks) is shown as written, references and backslashes included, so
 * there a zero-width space (U+200B) goes between `{` and the character that would make it a
 * delimiter; the same break keeps frontmatter strings inert.
 */

const ZWSP = '\u200b';

/**
 * The characters that start a delimiter each engine evaluates: a `{` before `{`, `%` or `#`, and
 * for Nunjucks a `#` before `}` too (a stray end of comment fails its build).
 */
const OPENERS: Record<TemplateEngine, RegExp | null> = {
  none: null,
  mdx: null,
  nunjucks: /\{(?=[{%#])|#(?=\})/g,
  liquid: /\{(?=[{%])/g,
  hugo: /\{(?=\{)/g,
};

const REFERENCES: Record<string, string> = { '{': '&#123;', '#': '&#35;' };

/** Text that no engine of this kind reads as a delimiter, and shows as the same characters. */
export function breakDelimiters(text: string, engine: TemplateEngine): string {
  const opener = OPENERS[engine];
  return opener ? text.replace(opener, (char) => `${char}${ZWSP}`) : text;
}

/** A delimiter the engine would evaluate, or null: the last check on a whole file before a commit. */
export function engineDelimiterIn(text: string, engine: TemplateEngine): string | null {
  const opener = OPENERS[engine];
  if (!opener) return null;
  const at = text.search(new RegExp(opener.source));
  return at === -1 ? null : text.slice(at, at + 40).split('\n')[0];
}

const MDX_NODES = new Set([
  'mdxjsEsm',
  'mdxJsxFlowElement',
  'mdxJsxTextElement',
  'mdxFlowExpression',
  'mdxTextExpression',
]);

const encodeBraces = (url: string): string =>
  url.replace(/[{}]/g, (char) => (char === '{' ? '%7B' : '%7D'));

/** Changes the tree in place; returns the MDX code nodes it holds (a site without MDX cannot take them). */
function inertTree(node: Nodes, engine: TemplateEngine, code: string[]): void {
  if (MDX_NODES.has(node.type)) {
    code.push(node.type);
    return;
  }
  if (node.type === 'code' || node.type === 'inlineCode')
    node.value = breakDelimiters(node.value, engine);
  if (node.type === 'code' && node.meta) node.meta = breakDelimiters(node.meta, engine);
  if (node.type === 'code' && node.lang) node.lang = breakDelimiters(node.lang, engine);
  if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
    node.url = encodeBraces(node.url);
    if (node.title) node.title = breakDelimiters(node.title, engine);
  }
  if (node.type === 'image' && node.alt) node.alt = breakDelimiters(node.alt, engine);
  if (!('children' in node)) return;
  if (OPENERS[engine])
    (node as { children: Nodes[] }).children = (node.children as Nodes[]).flatMap(
      (child): Nodes[] =>
        child.type === 'text' ? textWithReferences(child.value, engine) : [child],
    );
  for (const child of node.children) inertTree(child, engine, code);
}

/**
 * Text whose `{` (or Nunjucks `#`) would start a delimiter: that character becomes a character
 * reference (`&#123;`, `&#35;`), which the template engine passes over and Markdown shows as it is.
 */
function textWithReferences(value: string, engine: TemplateEngine): PhrasingContent[] {
  const opener = new RegExp(OPENERS[engine]!.source, 'g');
  const parts: PhrasingContent[] = [];
  let last = 0;
  for (const match of value.matchAll(opener)) {
    if (match.index > last) parts.push({ type: 'text', value: value.slice(last, match.index) });
    parts.push({ type: 'html', value: REFERENCES[match[0]] });
    last = match.index + 1;
  }
  if (last < value.length) parts.push({ type: 'text', value: value.slice(last) });
  return parts;
}

/** Separators a site may use to end a post's summary; anything else learned from a repository is not written. */
export const EXCERPT_SEPARATORS = [
  '<!-- truncate -->',
  '{/* truncate */}',
  '<!--more-->',
  '<!-- more -->',
];

/** Blocks up to the first heading (or the first paragraph when there is none): the introduction. */
function introductionLength(children: RootContent[]): number {
  const heading = children.findIndex((child) => child.type === 'heading');
  if (heading > 0) return heading;
  const paragraph = children.findIndex((child) => child.type === 'paragraph');
  return paragraph === -1 ? 0 : paragraph + 1;
}

/** Raw HTML (in a body MDX could not parse) kept as the text it is: a paragraph at block level. */
function htmlAsText(node: Nodes): void {
  if (!('children' in node)) return;
  const block = ['root', 'blockquote', 'listItem', 'footnoteDefinition'].includes(node.type);
  (node as { children: Nodes[] }).children = (node.children as Nodes[]).map((child): Nodes => {
    if (child.type !== 'html') {
      htmlAsText(child);
      return child;
    }
    const text = { type: 'text' as const, value: child.value };
    return block ? { type: 'paragraph', children: [text] } : text;
  });
}

export type SiteBody = { text: string; mdxCode: string[] };

/**
 * The canonical body (MDX that passed the gate) as the site's body: parsed, made inert for
 * `engine`, serialized, with `separator` after the introduction when the site ends summaries there.
 */
export function siteBody(
  canonicalBody: string,
  engine: TemplateEngine,
  separator: string | null,
): SiteBody {
  let tree: Root;
  try {
    tree = parseMdxTree(canonicalBody);
  } catch {
    tree = parseMarkdownTree(canonicalBody); // a hand-shaped body: every character escaped as text
    htmlAsText(tree);
  }
  const mdxCode: string[] = [];
  inertTree(tree, engine, mdxCode);
  const cut = separator ? introductionLength(tree.children) : 0;
  if (!separator || cut === 0 || cut >= tree.children.length)
    return { text: serializeMdx(tree), mdxCode };
  const part = (children: RootContent[]) =>
    serializeMdx({ type: 'root', children }).replace(/\n+$/, '');
  return {
    text: `${part(tree.children.slice(0, cut))}\n\n${separator}\n\n${part(tree.children.slice(cut))}\n`,
    mdxCode,
  };
}

/**
 * Why the file must not be committed for this engine, or null. MDX sites: the body, without the
 * summary separator Inkstream wrote, passes the MDX gate against the repository's own version.
 * Template engines: no opening delimiter anywhere in the file, frontmatter included.
 */
export function siteGateProblem(
  file: { content: string; frontmatter: string; body: string },
  engine: TemplateEngine,
  separator: string | null,
  baselineBody: string | null,
): string | null {
  if (engine === 'mdx') {
    const withoutSeparator = separator
      ? file.body
          .split('\n')
          .filter((line) => line.trim() !== separator)
          .join('\n')
      : file.body;
    return mdxGateProblem(
      `---\n---\n${withoutSeparator}`,
      baselineBody === null ? null : `---\n---\n${baselineBody}`,
    );
  }
  const delimiter = engineDelimiterIn(file.content, engine);
  return delimiter === null
    ? null
    : `the file would carry ${JSON.stringify(delimiter)}, which the site's ${engine} templates would run, so it was not written`;
}

import type { Nodes, Parent, Root } from 'mdast';
import { codeBeyond, codeCounts, mayHoldCode, mdxCodeOf, type MdxCode } from './mdxCode.ts';
import { mdxText, parseMarkdownTree, parseMdxTree, serializeMdx } from './mdxSyntax.ts';

/** A piece of text from a model that MDX would have run, kept in the article as literal text. */
export type Neutralised = {
  kind: 'esm' | 'jsx' | 'expression' | 'invalid';
  excerpt: string;
  field: 'body' | 'title' | 'description';
};

export type NeutralisedText = { text: string; neutralised: Neutralised[] };

const MAX_EXCERPT = 120;
const MAX_RECORDED = 20;
const ROUNDS = 3;

const excerptOf = (source: string): string => {
  const flat = source.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_EXCERPT ? `${flat.slice(0, MAX_EXCERPT - 1)}…` : flat;
};

/** The code pieces of MDX text, or null when MDX cannot parse it. */
export function codeOfText(markdown: string): MdxCode[] | null {
  if (!mayHoldCode(markdown)) return [];
  try {
    return mdxCodeOf(parseMdxTree(markdown), markdown);
  } catch {
    return null;
  }
}

/**
 * Model-written Markdown made inert: every import/export, JSX element and `{…}` expression MDX
 * finds in it, beyond those `baseline` (the version it revises) already had, becomes escaped
 * literal text in place, so a reviewer sees it and nothing runs. Text MDX cannot parse at all is
 * read as plain Markdown and serialized again with everything escaped.
 */
export function neutraliseMdx(markdown: string, baseline: string | null): NeutralisedText {
  const allowed = codeCounts((baseline === null ? null : codeOfText(baseline)) ?? []);
  const neutralised: Neutralised[] = [];
  let text = markdown.trim(); // as the file will hold it: leading whitespace decides what a line is
  for (let round = 0; round < ROUNDS; round++) {
    const codes = codeOfText(text);
    if (!codes) return escapeEverything(text, neutralised);
    const foreign = codeBeyond(codes, allowed);
    if (!foreign.length) return { text, neutralised: neutralised.slice(0, MAX_RECORDED) };
    neutralised.push(
      ...foreign.map((code) => ({
        kind: code.kind,
        excerpt: excerptOf(code.source),
        field: 'body' as const,
      })),
    );
    for (const code of [...foreign].reverse())
      text = `${text.slice(0, code.start)}${mdxText(code.source)}${text.slice(code.end)}`;
  }
  return escapeEverything(text, neutralised);
}

/**
 * A title or description is a YAML string in the frontmatter, never part of the MDX body, so it
 * stays as written; code MDX would find in it is still recorded, for a site that renders it as MDX.
 */
export function codeInField(value: string, field: 'title' | 'description'): Neutralised[] {
  const codes = codeOfText(value);
  if (codes === null)
    return /[{}<>]/.test(value) ? [{ kind: 'invalid', excerpt: excerptOf(value), field }] : [];
  return codes.map((code) => ({ kind: code.kind, excerpt: excerptOf(code.source), field }));
}

/** Plain Markdown (which parses anything) serialized as MDX: raw HTML and braces become text. */
function escapeEverything(markdown: string, neutralised: Neutralised[]): NeutralisedText {
  const tree = parseMarkdownTree(markdown);
  const recorded = neutralised.length;
  literalHtml(tree, neutralised);
  if (neutralised.length === recorded)
    neutralised.push({
      kind: 'invalid',
      excerpt: excerptOf(markdown.match(/[^\n]*[{}<>][^\n]*/)?.[0] ?? markdown),
      field: 'body',
    });
  return { text: serializeMdx(tree), neutralised: neutralised.slice(0, MAX_RECORDED) };
}

/** Parents whose children are blocks: raw HTML there is a block, so its text needs a paragraph. */
const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

function literalHtml(node: Root | Parent, neutralised: Neutralised[]): void {
  node.children = node.children.map((child: Nodes) => {
    if (child.type === 'text') neutralised.push(...codeLookingText(child.value));
    if (child.type !== 'html') {
      if ('children' in child) literalHtml(child, neutralised);
      return child;
    }
    neutralised.push({ kind: 'jsx', excerpt: excerptOf(child.value), field: 'body' });
    const text = { type: 'text' as const, value: child.value };
    return FLOW_PARENTS.has(node.type) ? { type: 'paragraph' as const, children: [text] } : text;
  }) as typeof node.children;
}

/** In text MDX could not parse, what MDX would have read as code, for the record (all of it is escaped anyway). */
function codeLookingText(value: string): Neutralised[] {
  const esm = value.match(/^(?:import|export)\b.*$/gm) ?? [];
  const expressions = value.match(/\{[^{}]*\}/g) ?? [];
  return [
    ...esm.map((line) => ({
      kind: 'esm' as const,
      excerpt: excerptOf(line),
      field: 'body' as const,
    })),
    ...expressions.map((expression) => ({
      kind: 'expression' as const,
      excerpt: excerptOf(expression),
      field: 'body' as const,
    })),
  ];
}

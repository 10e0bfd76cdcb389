import type { Nodes, Root } from 'mdast';

/** What MDX would run when a site builds the file: an import/export, a JSX element, or a `{…}` expression. */
export type MdxCodeKind = 'esm' | 'jsx' | 'expression';

export type MdxCode = { kind: MdxCodeKind; start: number; end: number; source: string };

const KINDS: Record<string, MdxCodeKind> = {
  mdxjsEsm: 'esm',
  mdxJsxFlowElement: 'jsx',
  mdxJsxTextElement: 'jsx',
  mdxFlowExpression: 'expression',
  mdxTextExpression: 'expression',
};

/**
 * MDX code needs a `<` (JSX), a brace (expressions) or a line starting with `import`/`export`
 * (ESM), and so do the MDX-only parse errors: text without them is parsed by nobody, which
 * spares the parser the common case.
 */
export const mayHoldCode = (text: string): boolean =>
  /[<{}]|^[ \t]*(?:import|export)(?![A-Za-z0-9_$])/m.test(text);

/** The outermost code nodes of a parsed MDX tree (a JSX element's children belong to it), in source order. */
export function mdxCodeOf(tree: Root, source: string): MdxCode[] {
  const found: MdxCode[] = [];
  const visit = (node: Nodes): void => {
    const kind = KINDS[node.type];
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (kind && start !== undefined && end !== undefined) {
      found.push({ kind, start, end, source: source.slice(start, end) });
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
  return found;
}

/** Two spellings of the same element or expression that differ only in whitespace count as one. */
export const codeIdentity = (code: Pick<MdxCode, 'kind' | 'source'>): string =>
  `${code.kind}:${code.source.replace(/\s+/g, ' ').trim()}`;

/** How many of each piece of code a file has, for "not more than the repository's own version had". */
export function codeCounts(codes: readonly MdxCode[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const code of codes)
    counts.set(codeIdentity(code), (counts.get(codeIdentity(code)) ?? 0) + 1);
  return counts;
}

/** The code of `codes` beyond what `allowed` counts (each allowed piece covers one occurrence). */
export function codeBeyond(
  codes: readonly MdxCode[],
  allowed: ReadonlyMap<string, number>,
): MdxCode[] {
  const left = new Map(allowed);
  return codes.filter((code) => {
    const id = codeIdentity(code);
    const count = left.get(id) ?? 0;
    if (count > 0) {
      left.set(id, count - 1);
      return false;
    }
    return true;
  });
}

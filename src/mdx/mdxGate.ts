import { codeBeyond, codeCounts, mayHoldCode, mdxCodeOf, type MdxCode } from './mdxCode.ts';
import { mdxBodyOf } from './mdx.ts';
import { codeOfText } from './neutralise.ts';
import { parseMdxTree } from './mdxSyntax.ts';
import { UnsafeMdxError } from './unsafeMdxError.ts';

export { UnsafeMdxError };

const MAX_SHOWN = 80;

const describe = (code: MdxCode): string => {
  const flat = code.source.replace(/\s+/g, ' ').trim();
  const what = { esm: 'an import/export', jsx: 'a JSX element', expression: 'an expression' }[
    code.kind
  ];
  return `${what} (${JSON.stringify(flat.length > MAX_SHOWN ? `${flat.slice(0, MAX_SHOWN - 1)}…` : flat)})`;
};

/**
 * The last check before a version is recorded or committed: the whole file, parsed as MDX, may
 * hold no import/export, JSX or expression beyond those of `baseline` (the repository's own
 * version, or the version it replaces). Returns why not, or null when the file is inert.
 */
export function mdxGateProblem(file: string, baseline: string | null): string | null {
  let body: string;
  let codes: MdxCode[];
  try {
    body = mdxBodyOf(file);
    codes = mayHoldCode(body) ? mdxCodeOf(parseMdxTree(body), body) : [];
  } catch (error) {
    return `the file is not valid MDX (${error instanceof Error ? error.message : String(error)}), so it was not written`;
  }
  const allowedBody = baseline === null ? null : safeBody(baseline);
  const added = codeBeyond(
    codes,
    codeCounts((allowedBody === null ? null : codeOfText(allowedBody)) ?? []),
  );
  if (!added.length) return null;
  return `the file would add ${added.slice(0, 3).map(describe).join(', ')}${added.length > 3 ? ` and ${added.length - 3} more` : ''} that MDX would run, which the repository's version does not have, so it was not written`;
}

function safeBody(file: string): string | null {
  try {
    return mdxBodyOf(file);
  } catch {
    return null;
  }
}

export function assertInertMdx(file: string, baseline: string | null): void {
  const problem = mdxGateProblem(file, baseline);
  if (problem) throw new UnsafeMdxError(problem);
}

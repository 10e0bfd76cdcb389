import { evaluate } from '@mdx-js/mdx';
import { mdxBodyOf } from '../../src/mdx/mdx.ts';

/**
 * What a site build does with a committed file: compiles its body with @mdx-js/mdx, runs the
 * program and renders the content. Planted code sets `globalThis.__inkstreamPwned` (each hostile
 * input in the tests does), so `ran` says whether anything from the file executed.
 */
const SENTINEL = '__inkstreamPwned';

type Element = { type: unknown; props: Record<string, unknown> };
const jsx = (type: unknown, props: Record<string, unknown>): Element =>
  typeof type === 'function'
    ? (type as (p: Record<string, unknown>) => Element)(props)
    : { type, props };
const runtime = { Fragment: 'fragment', jsx, jsxs: jsx };

export async function runMdx(file: string): Promise<{ ran: unknown; rendered: Element }> {
  const global = globalThis as Record<string, unknown>;
  delete global[SENTINEL];
  try {
    const { default: Content } = await evaluate(mdxBodyOf(file), {
      ...runtime,
      baseUrl: import.meta.url,
    });
    const rendered = (Content as (props: object) => Element)({});
    return { ran: global[SENTINEL], rendered };
  } finally {
    delete global[SENTINEL];
  }
}

/** A payload that sets the sentinel when MDX runs it. */
export const PWN = `globalThis.${SENTINEL} = 1`;

/** All the text a rendered tree shows, to check the reader sees the neutralised code as text. */
export function renderedText(node: unknown): string {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return node.map(renderedText).join('');
  if (node && typeof node === 'object' && 'props' in node)
    return renderedText((node as Element).props.children);
  return '';
}

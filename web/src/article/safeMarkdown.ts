import { defaultSchema } from 'rehype-sanitize';
import { defaultUrlTransform } from 'react-markdown';

/**
 * How an article's MDX body is turned into a page: plain Markdown (CommonMark + GFM), never MDX.
 * Nothing in it runs: `import`/`export` lines and `{expressions}` are text, raw HTML and JSX
 * (`<script>`, `<img onerror>`, `<Chart />`) are shown as the text they are, the sanitizer keeps
 * only its allow-list of elements and attributes, links keep only http(s), mailto and relative
 * addresses, and images only this origin or https. The findings of the content checks are marked
 * after sanitizing, by the elements this file makes itself.
 */

type HastText = {
  type: 'text';
  value: string;
  position?: { start: { offset?: number }; end: { offset?: number } };
};
type HastElement = {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: HastNode[];
};
type HastNode =
  | HastText
  | HastElement
  | { type: string; value?: string; children?: HastNode[]; position?: HastText['position'] };
type HastParent = { children: HastNode[] };

export type FindingRange = { start: number; end: number; id: string; status: 'warn' | 'fail' };

/** Raw HTML (and the JSX MDX would have run) becomes the text it is, before the sanitizer sees it. */
export function rawAsText() {
  return (tree: HastParent) =>
    walk(tree, (node) => {
      if (node.type === 'raw') (node as { type: string }).type = 'text';
    });
}

/** The sanitizer's default allow-list, with images only from this origin or https. */
export const sanitizeSchema = {
  ...defaultSchema,
  protocols: { ...defaultSchema.protocols, src: ['https'] },
};

/** Links: what react-markdown allows (no javascript:, data:, vbscript:); images: this origin or https only. */
export function safeUrl(url: string, key: string): string {
  const allowed = defaultUrlTransform(url);
  if (key !== 'src' || !allowed) return allowed;
  if (allowed.startsWith('/') && !allowed.startsWith('//')) return allowed;
  return /^https:\/\//i.test(allowed) ? allowed : '';
}

/**
 * Wraps the text of each finding (offsets into the body source, end exclusive) in a <mark>. A text
 * node whose source is exactly its text is split at the finding's edges; one whose source differs
 * (escapes, entities) is marked whole when it overlaps.
 */
export function highlightFindings(ranges: readonly FindingRange[]) {
  return (tree: HastParent) => {
    if (ranges.length === 0) return;
    const marked = new Set<string>();
    const visit = (parent: HastParent) => {
      parent.children = parent.children.flatMap((child) => {
        if (child.type === 'text') return splitText(child as HastText, ranges, marked);
        if (
          'children' in child &&
          Array.isArray(child.children) &&
          (child as HastElement).tagName !== 'mark'
        )
          visit(child as HastParent);
        return [child];
      });
    };
    visit(tree);
  };
}

function splitText(
  node: HastText,
  ranges: readonly FindingRange[],
  marked: Set<string>,
): HastNode[] {
  const from = node.position?.start.offset;
  const to = node.position?.end.offset;
  if (from === undefined || to === undefined) return [node];
  const overlapping = ranges.filter((range) => range.start < to && range.end > from);
  if (overlapping.length === 0) return [node];
  const exact = to - from === node.value.length;
  const out: HastNode[] = [];
  let cursor = 0;
  for (const range of overlapping) {
    const start = exact ? Math.max(0, range.start - from) : 0;
    const end = exact ? Math.min(node.value.length, range.end - from) : node.value.length;
    if (start < cursor) continue;
    if (start > cursor) out.push({ type: 'text', value: node.value.slice(cursor, start) });
    const first = !marked.has(range.id);
    marked.add(range.id);
    out.push({
      type: 'element',
      tagName: 'mark',
      properties: {
        className: ['finding', `finding-${range.status}`],
        dataFinding: range.id,
        ...(first ? { id: range.id } : {}),
      },
      children: [{ type: 'text', value: node.value.slice(start, end) }],
    });
    cursor = end;
  }
  if (cursor < node.value.length) out.push({ type: 'text', value: node.value.slice(cursor) });
  return out;
}

/** Every link the rendered body keeps (after sanitizing), for the list of internal links. */
export function collectLinks(sink: { href: string; text: string }[]) {
  return (tree: HastParent) =>
    walk(tree, (node) => {
      const element = node as HastElement;
      if (
        element.type === 'element' &&
        element.tagName === 'a' &&
        typeof element.properties.href === 'string'
      ) {
        sink.push({ href: element.properties.href, text: textOf(element) });
      }
    });
}

function textOf(node: HastNode): string {
  if (node.type === 'text') return (node as HastText).value;
  return 'children' in node && Array.isArray(node.children)
    ? node.children.map(textOf).join('')
    : '';
}

function walk(node: HastParent | HastNode, visit: (node: HastNode) => void): void {
  if ('type' in node) visit(node as HastNode);
  if ('children' in node && Array.isArray(node.children))
    for (const child of node.children) walk(child, visit);
}

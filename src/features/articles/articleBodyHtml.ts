import type { Root, Element, ElementContent, Nodes } from 'hast';

/**
 * An article's body as sanitized HTML, for the article page's first response (docs/workspace.md,
 * "How the article page loads"). It is the browser's pipeline (web/src/article/safeMarkdown.ts and
 * MarkdownBody.tsx) run on the server: Markdown (CommonMark + GFM), never MDX; raw HTML and JSX
 * become the text they are; rehype-sanitize with the same schema; the same URL rule; headings a
 * level below the page's h1; a dropped link or image shown as its text; rel on every link. The
 * web app imports nothing from src/, so the schema and the URL rule are written twice, and
 * test/features/articles/articleBodyHtml.unit.test.ts fails when the two differ.
 * The toolchain is imported on the first render, not at start (docs/memory.md).
 */

type Render = (markdown: string) => string;
let loading: Promise<Render> | null = null;

export function renderArticleBodyHtml(markdown: string): Promise<string> {
  loading ??= loadPipeline();
  return loading.then((render) => render(markdown));
}

async function loadPipeline(): Promise<Render> {
  const [
    { unified },
    { default: remarkParse },
    { default: remarkGfm },
    { default: remarkRehype },
    { default: rehypeSanitize, defaultSchema },
    { default: rehypeStringify },
  ] = await Promise.all([
    import('unified'),
    import('remark-parse'),
    import('remark-gfm'),
    import('remark-rehype'),
    import('rehype-sanitize'),
    import('rehype-stringify'),
  ]);
  const processor = unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(rawAsText)
    .use(rehypeSanitize, sanitizeSchemaFrom(defaultSchema))
    .use(pageElements)
    .use(rehypeStringify);
  return (markdown) => String(processor.processSync(markdown));
}

/** The sanitizer's default allow-list, with images only from this origin or https (web/src/article/safeMarkdown.ts `sanitizeSchema`). */
export function sanitizeSchemaFrom<S extends { protocols?: object | null }>(schema: S): S {
  return { ...schema, protocols: { ...schema.protocols, src: ['https'] } };
}

const SAFE_PROTOCOL = /^(https?|ircs?|mailto|xmpp)$/i;

/**
 * Links: relative, http(s), mailto (react-markdown's defaultUrlTransform: no javascript:, data:,
 * vbscript:); images: this origin or https only. '' when the address is dropped.
 */
export function safeUrl(url: string, key: string): string {
  const colon = url.indexOf(':');
  const before = (mark: string) => url.indexOf(mark) !== -1 && colon > url.indexOf(mark);
  const allowed =
    colon === -1 ||
    before('/') ||
    before('?') ||
    before('#') ||
    SAFE_PROTOCOL.test(url.slice(0, colon))
      ? url
      : '';
  if (key !== 'src' || !allowed) return allowed;
  if (allowed.startsWith('/') && !allowed.startsWith('//')) return allowed;
  return /^https:\/\//i.test(allowed) ? allowed : '';
}

/** Raw HTML (and the JSX MDX would have run) becomes the text it is, before the sanitizer sees it. */
function rawAsText() {
  return (tree: Root) =>
    walk(tree, (node) => {
      if ((node as { type: string }).type === 'raw') (node as { type: string }).type = 'text';
    });
}

const SHIFTED_HEADINGS: Record<string, string> = {
  h1: 'h2',
  h2: 'h3',
  h3: 'h4',
  h4: 'h5',
  h5: 'h6',
  h6: 'h6',
};
/** The URL properties the sanitizer can leave, and the elements they belong to (react-markdown applies its urlTransform to these). */
const URL_PROPERTIES: Record<string, readonly string[]> = {
  href: ['a'],
  src: ['img'],
  cite: ['blockquote', 'del', 'ins', 'q'],
};

/** What MarkdownBody.tsx's components do: shifted headings (id only), SafeLink, SafeImage, and the URL rule on every address. */
function pageElements() {
  return (tree: Root) =>
    walk(tree, (node) => {
      if (node.type !== 'element') return;
      for (const [key, tags] of Object.entries(URL_PROPERTIES)) {
        if (tags.includes(node.tagName) && key in node.properties)
          node.properties[key] = safeUrl(String(node.properties[key] ?? ''), key);
      }
      if (node.tagName in SHIFTED_HEADINGS) {
        node.tagName = SHIFTED_HEADINGS[node.tagName];
        node.properties = node.properties.id === undefined ? {} : { id: node.properties.id };
      } else if (node.tagName === 'a') {
        const href = node.properties.href;
        if (typeof href === 'string' && href)
          node.properties = { href, rel: ['noopener', 'noreferrer', 'nofollow'] };
        else Object.assign(node, { tagName: 'span', properties: { className: ['dropped-link'] } });
      } else if (node.tagName === 'img') {
        const { src, alt } = node.properties;
        if (typeof src === 'string' && src)
          node.properties = { src, alt: typeof alt === 'string' ? alt : '', loading: 'lazy' };
        else droppedImage(node, typeof alt === 'string' ? alt : '');
      }
    });
}

function droppedImage(node: Element, alt: string): void {
  const text: ElementContent = { type: 'text', value: `[image not shown${alt ? `: ${alt}` : ''}]` };
  Object.assign(node, {
    tagName: 'span',
    properties: { className: ['dropped-image'] },
    children: [text],
  });
}

function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child, visit);
}

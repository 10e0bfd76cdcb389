import type { Root } from 'mdast';

type Extract = (html: string) => string;

/**
 * The most HTML (scripts, styles, navigation and footer already removed) the readability pass
 * reads: it runs on the crawl's thread, and its time grows with the document (about 0.1–0.3 s for
 * 100 KB on a loaded 2-core VM). A page summary keeps 16,000 characters of text, far less than this.
 */
const MAX_HTML_CHARS = 300_000;

let extractor: Promise<Extract> | undefined;

/**
 * The main content of an HTML page as Markdown that keeps its headings, lists and tables.
 * Readability (Firefox's reader view) drops navigation, bylines, share bars, comments and hidden
 * elements; the rest goes HTML → hast → mdast and is serialized by the project's MDX serializer, so
 * whatever the page says is escaped text that MDX can never run. Links keep their words only and
 * images are left out: the text is reading matter for a writer, not markup to copy.
 * The libraries, the MDX serializer among them, load on the first call (they are only needed while a crawl runs). When
 * Readability finds nothing or fails, the page's plain text (one block a line) is kept instead,
 * each block escaped the same way.
 */
export async function readableMarkdown(html: string, plainText: string): Promise<string> {
  extractor ??= loadExtractor();
  const [extract, { mdxText }] = await Promise.all([extractor, mdxSyntax()]);
  let markdown = '';
  try {
    markdown = extract(html.slice(0, MAX_HTML_CHARS));
  } catch {
    // a document Readability cannot handle still has its plain text
  }
  return markdown || plainText.split('\n').map(mdxText).filter(Boolean).join('\n\n');
}

const mdxSyntax = () => import('../../mdx/mdxSyntax.ts');

async function loadExtractor(): Promise<Extract> {
  const [{ parseHTML }, { Readability }, { fromHtml }, { toMdast }, { serializeMdx }] =
    await Promise.all([
      import('linkedom'),
      import('@mozilla/readability'),
      import('hast-util-from-html'),
      import('hast-util-to-mdast'),
      mdxSyntax(),
    ]);
  return (html) => {
    const { document } = parseHTML(html);
    // A low threshold keeps Readability's first, strictest pass on short pages: its retries start
    // from the original document but remember the byline they already found, and keep it in the text.
    const article = new Readability(
      document as unknown as ConstructorParameters<typeof Readability>[0],
      { charThreshold: 100 },
    ).parse();
    if (!article?.content) return '';
    const tree = toMdast(fromHtml(article.content, { fragment: true }), {
      handlers: {
        a: (state, node) => state.all(node),
        img: () => undefined,
        picture: () => undefined,
      },
    });
    return serializeMdx(tree as Root).trim();
  };
}

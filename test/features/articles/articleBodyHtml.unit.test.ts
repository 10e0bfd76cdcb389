import type { Element, ElementContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { defaultSchema } from 'rehype-sanitize';
import { expect, test } from 'vitest';
import {
  renderArticleBodyHtml,
  safeUrl,
  sanitizeSchemaFrom,
} from '../../../src/features/articles/articleBodyHtml.ts';
import {
  safeUrl as browserSafeUrl,
  sanitizeSchema as browserSchema,
} from '../../../web/src/article/safeMarkdown.ts';
import { markdown as benchArticle } from '../../../bench/articleRender/setup.ts';

/**
 * The server's article HTML and the browser's article body are the same pipeline written twice
 * (the web app imports nothing from src/): this renders a corpus through both (MarkdownBody.tsx
 * with react-dom's renderer) and compares the text, the elements and their attributes.
 */
const web = createRequire(new URL('../../../web/package.json', import.meta.url));
const webModule = (specifier: string) => import(pathToFileURL(web.resolve(specifier)).href);
// Imported by address so the root typecheck (no JSX) does not follow it into web/'s TSX.
const markdownBodyUrl = new URL('../../../web/src/article/MarkdownBody.tsx', import.meta.url).href;

type BrowserRender = (body: string) => string;
async function browserRenderer(): Promise<BrowserRender> {
  const [{ createElement }, { renderToStaticMarkup }, { useMarkdownBody }] = await Promise.all([
    webModule('react'),
    webModule('react-dom/server'),
    import(markdownBodyUrl),
  ]);
  function Body({ body }: { body: string }) {
    return useMarkdownBody(body, []).element;
  }
  return (body) => renderToStaticMarkup(createElement(Body, { body }));
}

type Canonical =
  | string
  | { tag: string; attributes: Record<string, unknown>; children: Canonical[] };

/** Elements with their attributes (sorted) and text; whitespace-only text between elements left out (React drops it inside tables). */
function canonical(html: string): Canonical[] {
  return nodes(fromHtml(html, { fragment: true }).children as ElementContent[]);
}
function nodes(children: readonly ElementContent[]): Canonical[] {
  const out: Canonical[] = [];
  let text = '';
  const flush = () => {
    if (text.trim()) out.push(text);
    text = '';
  };
  for (const child of children) {
    if (child.type === 'text') {
      text += child.value;
      continue;
    }
    if (child.type !== 'element') continue;
    flush();
    out.push({
      tag: child.tagName,
      attributes: attributes(child),
      children: nodes(child.children),
    });
  }
  flush();
  return out;
}
function attributes(element: Element): Record<string, unknown> {
  const entries = Object.entries(element.properties).map(([name, value]): [string, unknown] => {
    // React writes a table cell's alignment as a style (hast-util-to-jsx-runtime); the server keeps `align`, which the CSP's style-src allows.
    const aligned = name === 'style' && /^text-align:\s*(\w+);?$/.exec(String(value));
    if (aligned) return ['align', aligned[1]];
    if (name.startsWith('data') && (value === '' || value === 'true')) return [name, true];
    return [name, Array.isArray(value) ? value.join(' ') : value];
  });
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

const CORPUS: Record<string, string> = {
  'the bench article': benchArticle,
  headings: '# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n',
  table:
    '| left | centre | right |\n| :--- | :---: | ---: |\n| a | **b** | `c` |\n| 1 | 2 | [three](https://acme.example/3) |\n',
  code: '```js\nconst a = "<script>";\n```\n\nInline `code <b>` and\n\n    indented code\n',
  lists:
    '- one\n- two\n  1. nested\n  2. list\n- [ ] task\n- [x] done\n\n> a quote with *emphasis* and ~~strike~~\n',
  links:
    '[http](https://acme.example/a "a title") [relative](/pricing) [anchor](#top) [mail](mailto:hi@acme.example) [ref][r] <https://auto.example> www.literal.example\n\n[r]: https://ref.example\n',
  'dropped links':
    '[js](javascript:alert(1)) [data](data:text/html,x) [vb](vbscript:x) [entity](&#x6A;avascript:alert(1)) [empty]()\n',
  images:
    '![https](https://cdn.example/a.png "t") ![local](/api/v1/a.png) ![http](http://cdn.example/a.png) ![data](data:image/png;base64,AAAA) ![proto](//cdn.example/a.png) ![](javascript:alert(1))\n',
  footnotes: 'A claim.[^1]\n\n[^1]: The source.\n',
  'raw html and jsx':
    '<script>alert(1)</script>\n\n</div><script>alert(2)</script>\n\n<img src=x onerror=alert(3)>\n\nText {alert(4)} and <Chart onLoad={() => alert(5)} />\n\n<!-- <script>alert(6)</script> -->\n\n]]> <![CDATA[x]]>\n\n<style>p{}</style>\n\n<iframe src="https://evil.example"></iframe>\n\n<svg onload=alert(7)><script>alert(8)</script></svg>\n\n<a href="javascript:alert(9)">raw</a>\n',
  entities: '&lt;script&gt; &#60;b&#62; &amp;amp; &copy; &#x0; &nbsp;\n',
  'esm lines': "import Evil from 'https://evil.example/esm.js'\nexport const leak = 1\n",
};

test('every body of the corpus renders to the same text, elements and attributes on the server as in the browser', async () => {
  const browser = await browserRenderer();
  for (const [name, body] of Object.entries(CORPUS)) {
    const server = await renderArticleBodyHtml(body);
    expect(canonical(server), name).toEqual(canonical(browser(body)));
  }
});

test("the sanitizer schema and the URL rule are the browser's", () => {
  expect(sanitizeSchemaFrom(defaultSchema)).toEqual(browserSchema);
  const urls = [
    'https://a.example/x',
    'http://a.example/x',
    '/local',
    '//proto.example/x',
    '#anchor',
    '?q=1',
    'relative/path',
    'mailto:a@b.example',
    'xmpp:a@b',
    'ircs://irc.example',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,x',
    'vbscript:x',
    'java script:x',
    'a/b:c',
    'a?b:c',
    'a#b:c',
    'file:///etc/passwd',
    '',
  ];
  for (const url of urls)
    for (const key of ['href', 'src', 'cite'])
      expect(safeUrl(url, key), `${key} ${url}`).toBe(browserSafeUrl(url, key));
});

test("headings sit a level below the page's h1, raw HTML is text, and a dropped link or image is its text", async () => {
  const html = await renderArticleBodyHtml(
    '# Title\n\n<b onclick="x()">bold?</b> [js](javascript:x) ![pic](http://x.example/p.png)\n',
  );
  expect(html).toContain('<h2>Title</h2>');
  expect(html).toContain('&#x3C;b onclick="x()">bold?&#x3C;/b>');
  expect(html).toContain('<span class="dropped-link">js</span>');
  expect(html).toContain('<span class="dropped-image">[image not shown: pic]</span>');
});

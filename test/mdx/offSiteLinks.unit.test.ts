import { expect, test } from 'vitest';
import { unlinkExcept } from '../../src/mdx/offSiteLinks.ts';
import { codeOfText } from '../../src/mdx/neutralise.ts';
import { parseMarkdownTree } from '../../src/mdx/mdxSyntax.ts';
import { siteLinkPolicy } from '../../src/features/pipeline/writing/siteLinks.ts';

const onSite = siteLinkPolicy({
  websiteUrl: 'https://fernleaf.example',
  blogUrl: null,
  sitemapUrl: null,
});
const urlsOf = (markdown: string): string[] => {
  const found: string[] = [];
  const visit = (node: any) => {
    if (node.type === 'link' || node.type === 'definition') found.push(node.url);
    node.children?.forEach(visit);
  };
  visit(parseMarkdownTree(markdown));
  return found;
};

test('links that only look like the site are off the site', () => {
  for (const url of [
    'https://evil.example/deal',
    '//evil.example/deal',
    'https://fernleaf.example.evil.example/',
    'https://fernleaf.example@evil.example/',
    'javascript:alert(1)',
    'data:text/html,hi',
    'mailto:sales@evil.example',
    'ftp://fernleaf.example/file',
  ])
    expect(onSite(url), url).toBe(false);
  for (const url of [
    'https://fernleaf.example/blog/brewing-green-tea',
    'http://www.fernleaf.example/about',
    '/about',
    '#steeping',
  ])
    expect(onSite(url), url).toBe(true);
});

test('every kind of off-site link becomes plain text a GFM site does not link, and on-site links stay byte for byte', () => {
  const body = [
    'Get [the _best_ deal](https://evil.example/deal) or see https://evil.example/bare today.',
    'A [reference][r] link and [our guide](https://fernleaf.example/blog/brewing-green-tea).',
    '',
    '[r]: https://evil.example/ref',
    '',
  ].join('\n');
  const { text, removed } = unlinkExcept(body, onSite);
  expect(removed.map((link) => link.url)).toEqual([
    'https://evil.example/deal',
    'https://evil.example/bare',
    'https://evil.example/ref',
  ]);
  expect(removed[0].text).toBe('the best deal');
  expect(urlsOf(text)).toEqual(['https://fernleaf.example/blog/brewing-green-tea']);
  expect(text).toContain('Get the _best_ deal or see `https://evil.example/bare` today.');
  expect(text).toContain(
    'A reference link and [our guide](https://fernleaf.example/blog/brewing-green-tea).',
  );
});

test('link text that is itself a URL or an address stays as inline code, which no renderer links', () => {
  const { text } = unlinkExcept(
    'See [https://evil.example](https://evil.example) or [write to us](mailto:deals@evil.example) or [deals@evil.example](mailto:deals@evil.example).\n',
    onSite,
  );
  expect(text).toBe('See `https://evil.example` or write to us or `deals@evil.example`.\n');
  expect(urlsOf(text)).toEqual([]);
});

test('a body with only site links comes back unchanged', () => {
  const body =
    'Read [the guide](https://fernleaf.example/blog/brewing-green-tea) and [about us](/about).\n';
  expect(unlinkExcept(body, onSite)).toEqual({ text: body, removed: [] });
});

test('a bare URL that ends in the backslash escaping what follows leaves that text escaped: no JSX appears when the link is taken out', () => {
  for (const body of [
    'http://x/\\<Script/>',
    'see http://x/\\<b/> now',
    'at www.x.example/\\{alert(1)}',
  ]) {
    const { text } = unlinkExcept(body, () => false);
    expect(codeOfText(text), text).toEqual([]);
  }
});

import { expect, test } from 'vitest';
import { gzipSync } from 'node:zlib';
import { parseSitemap } from '../../../src/integrations/crawler/sitemap.ts';

const urlset = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc> https://a.test/one </loc><lastmod>2024-01-01</lastmod></url><url><loc>https://a.test/two</loc></url></urlset>`;

test('a urlset lists its pages', () => {
  expect(parseSitemap(Buffer.from(urlset))).toEqual({
    kind: 'urlset',
    locations: ['https://a.test/one', 'https://a.test/two'],
  });
});

test('a sitemap index lists further sitemaps', () => {
  const index =
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.test/posts.xml</loc></sitemap></sitemapindex>';
  expect(parseSitemap(Buffer.from(index))).toEqual({
    kind: 'index',
    locations: ['https://a.test/posts.xml'],
  });
});

test('gzipped files and plain-text sitemaps are read too', () => {
  expect(parseSitemap(gzipSync(urlset)).locations).toHaveLength(2);
  expect(
    parseSitemap(Buffer.from('https://a.test/a\nhttps://a.test/b\nnot a url')).locations,
  ).toEqual(['https://a.test/a', 'https://a.test/b']);
});

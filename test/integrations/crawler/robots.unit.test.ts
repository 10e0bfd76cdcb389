import { expect, test } from 'vitest';
import { isAllowed, parseRobots, rulesFor } from '../../../src/integrations/crawler/robots.ts';

const rules = (text: string, token = 'Inkstream') => rulesFor(parseRobots(text), token);

test('the longest matching rule wins, and Allow wins a tie', () => {
  const r = rules(
    'User-agent: *\nDisallow: /shop\nAllow: /shop/public\nDisallow: /tie\nAllow: /tie',
  );
  expect(isAllowed(r, '/shop/cart')).toBe(false);
  expect(isAllowed(r, '/shop/public/item')).toBe(true);
  expect(isAllowed(r, '/tie')).toBe(true);
  expect(isAllowed(r, '/elsewhere')).toBe(true);
});

test('* matches any run of characters and $ anchors the end', () => {
  const r = rules('User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?session=');
  expect(isAllowed(r, '/files/report.pdf')).toBe(false);
  expect(isAllowed(r, '/files/report.pdf.html')).toBe(true);
  expect(isAllowed(r, '/page?session=1')).toBe(false);
});

test('groups naming our product token are merged and replace "*"; versions and case do not matter', () => {
  const text =
    'User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nUser-agent: INKSTREAM/2.0\nDisallow: /a\n\nUser-agent: inkstream\nDisallow: /b';
  const r = rules(text);
  expect(isAllowed(r, '/')).toBe(true);
  expect(isAllowed(r, '/a')).toBe(false);
  expect(isAllowed(r, '/b')).toBe(false);
  expect(isAllowed(rules(text, 'OtherBot'), '/')).toBe(false);
});

test('an empty Disallow allows everything; robots.txt itself is always allowed; comments are ignored', () => {
  expect(isAllowed(rules('User-agent: *\nDisallow:'), '/x')).toBe(true);
  expect(isAllowed(rules('User-agent: *\nDisallow: /'), '/robots.txt')).toBe(true);
  expect(
    isAllowed(rules('User-agent: * # everyone\nDisallow: /private # keep out'), '/private/x'),
  ).toBe(false);
});

test('non-ASCII patterns match percent-encoded paths', () => {
  expect(
    isAllowed(
      rules('User-agent: *\nDisallow: /café'),
      new URL('https://x.test/café/menu').pathname,
    ),
  ).toBe(false);
});

test('Sitemap lines are collected wherever they appear', () => {
  expect(
    parseRobots(
      'Sitemap: https://a.test/s1.xml\nUser-agent: *\nDisallow: /x\nsitemap: https://a.test/s2.xml',
    ).sitemaps,
  ).toEqual(['https://a.test/s1.xml', 'https://a.test/s2.xml']);
});

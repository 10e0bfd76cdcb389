import { page, startTestSite, type TestSite } from '../../../../support/testSite.ts';

/**
 * Fernleaf Tea, a small tea shop: what its pages say is all an article may state about it. The
 * About page says it never makes health claims; the blog says how to brew green tea.
 */
export const TEA_PAGES = {
  '/': page(
    [
      '<h1>Fernleaf Tea</h1>',
      '<p>Fernleaf Tea sells loose-leaf green and black teas from three family farms in Shizuoka.</p>',
      '<p>Every tin is packed within 30 days of the harvest.</p>',
      '<a href="/about">About us</a> <a href="/blog/brewing-green-tea">How to brew green tea</a>',
    ].join(''),
    'Fernleaf Tea',
  ),
  '/about': page(
    [
      '<h1>About Fernleaf Tea</h1>',
      '<p>We started Fernleaf Tea in 2016 in Bristol.</p>',
      '<p>We never make health claims about tea. We describe how it tastes, where it grows and how to brew it.</p>',
    ].join(''),
    'About | Fernleaf Tea',
  ),
  '/blog/brewing-green-tea': page(
    [
      '<h1>Brewing green tea</h1>',
      '<p>Brew green tea with water at 80°C for two to three minutes.</p>',
      '<p>Water that is too hot makes green tea bitter, so let the kettle rest first.</p>',
    ].join(''),
    'Brewing green tea | Fernleaf Tea',
  ),
};

export const startTeaSite = (): Promise<TestSite> =>
  startTestSite({ replaceDefaults: true, pages: TEA_PAGES });

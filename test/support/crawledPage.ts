import type { CrawledPage } from '../../src/integrations/crawler/types.ts';

/** A crawled page for unit tests of the brand learner: give the fields the test is about. */
export function crawledPage(overrides: Partial<CrawledPage> & { url: string }): CrawledPage {
  return {
    status: 200,
    title: '',
    headings: [],
    text: '',
    markdown: '',
    footerText: '',
    quotes: [],
    navLinks: [],
    links: [],
    stylesheetUrls: [],
    inlineCss: '',
    ...overrides,
  };
}

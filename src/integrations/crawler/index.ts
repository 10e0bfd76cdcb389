export { crawlSite, ROBOTS_TOKEN } from './crawlSite.ts';
export { learnBrand } from '../../features/pipeline/brand/learn/learnBrand.ts';
export * from '../../features/pipeline/brand/learn/brandProfile.ts';
export type {
  CrawlInput, CrawlResult, CrawledPage, Heading, HttpFetcher, PageLink, SkipKind, SkippedUrl, Stylesheet,
} from './types.ts';

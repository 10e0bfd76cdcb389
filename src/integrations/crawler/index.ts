export { crawlSite, ROBOTS_TOKEN } from './crawlSite.ts';
export type {
  CrawlInput,
  CrawlResult,
  CrawledPage,
  Heading,
  HttpFetcher,
  PageLink,
  SkipKind,
  SkippedUrl,
  Stylesheet,
} from './types.ts';

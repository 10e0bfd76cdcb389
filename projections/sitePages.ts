import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection } from '../src/readstore/projection.ts';
import { PROJECT_EVENTS, type ProjectEvent } from '../src/domain/projects/project.ts';

/** A page of the site by the names a topic could repeat: its URL, title and first heading (a page only the sitemap lists has its URL alone). */
export type SitePageName = { url: string; title: string; heading?: string };

/** The pages of a project's last crawl, small enough to read on every topic added by hand. */
export type SitePagesDoc = { id: string; accountId: string; pages: SitePageName[] };

export const sitePages = defineProjection<SitePagesDoc, ProjectEvent>({
  name: 'sitePages',
  collection: 'site_pages',
  indexes: [],
  categories: ['project'],
  events: PROJECT_EVENTS,
  documentId: (event) => (event.type === 'BrandCrawled' ? String(event.data.projectId) : null),
  evolve(doc, event) {
    if (event.type !== 'BrandCrawled') return doc;
    const pages = [
      ...event.data.pages.map(({ url, title, headings }) => ({
        url,
        title,
        ...(headings[0] ? { heading: headings[0] } : {}),
      })),
      ...(event.data.sitemapUrls ?? []).map((url) => ({ url, title: '' })),
    ];
    return { id: event.data.projectId, accountId: event.metadata.accountId, pages };
  },
});

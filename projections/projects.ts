import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection } from '../src/readstore/projection.ts';
import { PROJECT_EVENTS, emptyBrand, type ProjectEvent } from '../src/domain/projects/project.ts';
import type { BrandPart, BrandProfile } from '../src/domain/projects/brand.ts';
import type { Settings } from '../src/domain/projects/settings.ts';
import {
  INTEGRATION_EVENTS,
  type IntegrationEvent,
} from '../src/domain/integrations/integrations.ts';
import {
  SEARCH_ANALYTICS_EVENTS,
  type SearchAnalyticsEvent,
} from '../src/domain/searchAnalytics/searchAnalytics.ts';
import {
  NO_INTEGRATIONS,
  summarizeIntegrations,
  type IntegrationsSummary,
} from './integrations.ts';

export type LastBrandCrawl = {
  crawlId: string;
  at: string;
  /** The project's first crawl: everything is new, there is nothing to compare with. */
  initial: boolean;
  changedParts: Array<BrandPart | 'palette'>;
  keptEditedParts: BrandPart[];
  before: Partial<BrandProfile>;
  /** Why the voice is the measured one although a model is set up; absent when the model answered. */
  voiceFallbackReason?: string;
};

/** A project with its brand profile, as GET /projects/:id shows it. */
export type ProjectDoc = {
  id: string;
  accountId: string;
  name: string;
  websiteUrl: string;
  blogUrl: string | null;
  sitemapUrl: string | null;
  paused: boolean;
  settings: Settings;
  crawl: {
    status: 'pending' | 'done' | 'failed';
    crawlId: string | null;
    requestedAt: string | null;
    finishedAt: string | null;
    failureReason: string | null;
    pagesCrawled: number;
    /** Why the finished crawl kept the measured voice (the model failed); absent in documents from before. */
    voiceFallbackReason?: string | null;
  };
  brand: BrandProfile | null;
  brandEditedParts: BrandPart[];
  /** What the latest finished crawl changed, with the changed parts as they were before it (absent until the first). */
  lastBrandCrawl?: LastBrandCrawl;
  research: {
    runId: string;
    status: 'running' | 'done' | 'failed';
    failureReason: string | null;
    topicIds: string[];
  } | null;
  /** Which integrations are set (GitHub, post-publish hook, search analytics); no credential or secret. */
  integrations: IntegrationsSummary;
  createdAt: string;
  updatedAt: string;
};

export const projects = defineProjection<
  ProjectDoc,
  ProjectEvent | IntegrationEvent | SearchAnalyticsEvent
>({
  name: 'projects',
  collection: 'projects',
  // The project list (an account's, newest first) and the project cap's count.
  indexes: [{ accountId: 1, createdAt: -1 }],
  categories: ['project', 'integrations', 'searchAnalytics'],
  events: { ...PROJECT_EVENTS, ...INTEGRATION_EVENTS, ...SEARCH_ANALYTICS_EVENTS },
  documentId: (event) => String(event.data.projectId),
  evolve(doc, event) {
    if (event.type === 'ProjectCreated') {
      const { projectId, accountId, name, websiteUrl, blogUrl, sitemapUrl, settings, at } =
        event.data;
      return {
        id: projectId,
        accountId,
        name,
        websiteUrl,
        blogUrl,
        sitemapUrl,
        paused: false,
        settings,
        crawl: {
          status: 'pending',
          crawlId: null,
          requestedAt: at,
          finishedAt: null,
          failureReason: null,
          pagesCrawled: 0,
        },
        brand: null,
        brandEditedParts: [],
        research: null,
        integrations: NO_INTEGRATIONS,
        createdAt: at,
        updatedAt: at,
      };
    }
    if (!doc) return doc;
    const updatedAt = event.data.at;
    const integrations = summarizeIntegrations(doc.integrations ?? NO_INTEGRATIONS, event);
    if (integrations) return { ...doc, integrations, updatedAt };
    switch (event.type) {
      case 'ProjectRenamed':
        return { ...doc, name: event.data.name, updatedAt };
      case 'ProjectPaused':
        return { ...doc, paused: true, updatedAt };
      case 'ProjectResumed':
        return { ...doc, paused: false, updatedAt };
      case 'ProjectSettingsChanged':
        return { ...doc, settings: event.data.settings, updatedAt };
      case 'BrandCrawlRequested':
        return {
          ...doc,
          updatedAt,
          brandEditedParts: event.data.overwriteEdited ? [] : doc.brandEditedParts,
          crawl: {
            ...doc.crawl,
            status: 'pending',
            crawlId: event.data.crawlId,
            requestedAt: event.data.at,
            finishedAt: null,
            failureReason: null,
            voiceFallbackReason: null,
          },
        };
      case 'BrandCrawled':
        return {
          ...doc,
          brand: event.data.profile,
          updatedAt,
          lastBrandCrawl: crawlChanges(doc, event.data),
          crawl: {
            ...doc.crawl,
            status: 'done',
            finishedAt: event.data.at,
            pagesCrawled: event.data.pages.length,
            voiceFallbackReason: event.data.voiceFallbackReason ?? null,
          },
        };
      case 'BrandCrawlFailed':
        return {
          ...doc,
          updatedAt,
          crawl: {
            ...doc.crawl,
            status: 'failed',
            finishedAt: event.data.at,
            failureReason: event.data.reason,
          },
        };
      case 'BrandEdited':
        return {
          ...doc,
          updatedAt,
          brand: { ...(doc.brand ?? emptyBrand()), ...event.data.changes },
          brandEditedParts: [...new Set([...doc.brandEditedParts, ...event.data.parts])],
        };
      case 'TopicResearchRequested':
        return {
          ...doc,
          updatedAt,
          research: {
            runId: event.data.runId,
            status: 'running',
            failureReason: null,
            topicIds: [],
          },
        };
      case 'TopicResearchCompleted':
        return {
          ...doc,
          updatedAt,
          research: {
            runId: event.data.runId,
            status: 'done',
            failureReason: null,
            topicIds: event.data.topicIds,
          },
        };
      case 'TopicResearchFailed':
        return {
          ...doc,
          updatedAt,
          research: {
            runId: event.data.runId,
            status: 'failed',
            failureReason: event.data.reason,
            topicIds: [],
          },
        };
      default:
        return doc;
    }
  },
});

type BrandCrawledData = Extract<ProjectEvent, { type: 'BrandCrawled' }>['data'];

/** The parts the crawl changed (the palette, learned only, compared here) and what each was before. */
function crawlChanges(doc: ProjectDoc, data: BrandCrawledData): LastBrandCrawl {
  const previous = doc.brand ?? emptyBrand();
  const paletteChanged = JSON.stringify(previous.palette) !== JSON.stringify(data.profile.palette);
  const changedParts: LastBrandCrawl['changedParts'] = [
    ...data.changedParts,
    ...(paletteChanged ? ['palette' as const] : []),
  ];
  const before = Object.fromEntries(
    changedParts.map((part) => [part, previous[part]]),
  ) as Partial<BrandProfile>;
  return {
    crawlId: data.crawlId,
    at: data.at,
    initial: !doc.lastBrandCrawl,
    changedParts,
    keptEditedParts: data.keptEditedParts,
    before,
    ...(data.voiceFallbackReason ? { voiceFallbackReason: data.voiceFallbackReason } : {}),
  };
}

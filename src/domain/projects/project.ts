import type { EventNames } from '../../eventstore/handleCommand.ts';
import type { BrandPart, BrandProfile, CrawledPageSummary } from './brand.ts';
import type { Settings } from './settings.ts';

export type CrawlState =
  | { status: 'pending'; crawlId: string; requestedAt: string }
  | { status: 'done'; crawlId: string; finishedAt: string }
  | { status: 'failed'; crawlId: string; finishedAt: string; reason: string };

export type ProjectEvent =
  | {
      type: 'ProjectCreated';
      data: {
        projectId: string;
        accountId: string;
        name: string;
        websiteUrl: string;
        blogUrl: string | null;
        sitemapUrl: string | null;
        settings: Settings;
        at: string;
      };
    }
  | { type: 'ProjectRenamed'; data: { projectId: string; name: string; at: string } }
  | { type: 'ProjectPaused'; data: { projectId: string; at: string } }
  | { type: 'ProjectResumed'; data: { projectId: string; at: string } }
  | { type: 'ProjectSettingsChanged'; data: { projectId: string; settings: Settings; at: string } }
  | {
      type: 'BrandCrawlRequested';
      data: {
        projectId: string;
        crawlId: string;
        reason: 'project_created' | 'requested';
        overwriteEdited: boolean;
        at: string;
      };
    }
  | {
      type: 'BrandCrawled';
      data: {
        projectId: string;
        crawlId: string;
        profile: BrandProfile;
        pages: CrawledPageSummary[];
        sitemapUrls?: string[];
        changedParts: BrandPart[];
        keptEditedParts: BrandPart[];
        provider: string;
        model: string | null;
        at: string;
        /** Why the voice is the measured one although a model is set up (it failed); absent otherwise. */
        voiceFallbackReason?: string;
      };
    }
  | {
      type: 'BrandCrawlFailed';
      data: { projectId: string; crawlId: string; reason: string; at: string };
    }
  | {
      type: 'BrandEdited';
      data: { projectId: string; changes: Partial<BrandProfile>; parts: BrandPart[]; at: string };
    }
  | {
      type: 'TopicResearchRequested';
      data: { projectId: string; runId: string; reason: 'requested' | 'cadence'; at: string };
    }
  | {
      type: 'TopicResearchCompleted';
      data: {
        projectId: string;
        runId: string;
        topicIds: string[];
        provider: string;
        model: string | null;
        at: string;
      };
    }
  | {
      type: 'TopicResearchFailed';
      data: { projectId: string; runId: string; reason: string; at: string };
    };

/** Every type of ProjectEvent, as data: a read model skips (and logs) a type it does not know. */
export const PROJECT_EVENTS: EventNames<ProjectEvent> = {
  ProjectCreated: true,
  ProjectRenamed: true,
  ProjectPaused: true,
  ProjectResumed: true,
  ProjectSettingsChanged: true,
  BrandCrawlRequested: true,
  BrandCrawled: true,
  BrandCrawlFailed: true,
  BrandEdited: true,
  TopicResearchRequested: true,
  TopicResearchCompleted: true,
  TopicResearchFailed: true,
};

export type ActiveProject = {
  status: 'active' | 'paused';
  id: string;
  accountId: string;
  name: string;
  websiteUrl: string;
  blogUrl: string | null;
  sitemapUrl: string | null;
  settings: Settings;
  crawl: CrawlState;
  brand: BrandProfile | null;
  /** Parts a user set by PUT: a re-crawl keeps them unless asked to overwrite. */
  editedParts: BrandPart[];
  pages: CrawledPageSummary[];
  /** Pages the sitemap lists that the crawl did not read (their URLs only): topics must not repeat them either. */
  sitemapUrls?: string[];
  research: { runId: string; status: 'running' | 'done' | 'failed'; reason?: string } | null;
};

export type Project = { status: 'none' } | ActiveProject;

export const PROJECT_CATEGORY = 'project';

export const initialProject = (): Project => ({ status: 'none' });

export function evolveProject(state: Project, event: ProjectEvent): Project {
  if (event.type === 'ProjectCreated') {
    const { projectId, accountId, name, websiteUrl, blogUrl, sitemapUrl, settings, at } =
      event.data;
    return {
      status: 'active',
      id: projectId,
      accountId,
      name,
      websiteUrl,
      blogUrl,
      sitemapUrl,
      settings,
      crawl: { status: 'pending', crawlId: '', requestedAt: at },
      brand: null,
      editedParts: [],
      pages: [],
      research: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'ProjectRenamed':
      return { ...state, name: event.data.name };
    case 'ProjectPaused':
      return { ...state, status: 'paused' };
    case 'ProjectResumed':
      return { ...state, status: 'active' };
    case 'ProjectSettingsChanged':
      return { ...state, settings: event.data.settings };
    case 'BrandCrawlRequested': {
      const editedParts = event.data.overwriteEdited ? [] : state.editedParts;
      return {
        ...state,
        editedParts,
        crawl: { status: 'pending', crawlId: event.data.crawlId, requestedAt: event.data.at },
      };
    }
    case 'BrandCrawled':
      return {
        ...state,
        brand: event.data.profile,
        pages: event.data.pages,
        sitemapUrls: event.data.sitemapUrls ?? [],
        crawl: { status: 'done', crawlId: event.data.crawlId, finishedAt: event.data.at },
      };
    case 'BrandCrawlFailed':
      return {
        ...state,
        crawl: {
          status: 'failed',
          crawlId: event.data.crawlId,
          finishedAt: event.data.at,
          reason: event.data.reason,
        },
      };
    case 'BrandEdited': {
      const brand = { ...(state.brand ?? emptyBrand()), ...event.data.changes } as BrandProfile;
      return {
        ...state,
        brand,
        editedParts: [...new Set([...state.editedParts, ...event.data.parts])],
      };
    }
    case 'TopicResearchRequested':
      return { ...state, research: { runId: event.data.runId, status: 'running' } };
    case 'TopicResearchCompleted':
      return { ...state, research: { runId: event.data.runId, status: 'done' } };
    case 'TopicResearchFailed':
      return {
        ...state,
        research: { runId: event.data.runId, status: 'failed', reason: event.data.reason },
      };
    default:
      return state;
  }
}

export function emptyBrand(): BrandProfile {
  return {
    voice: {
      summary: '',
      person: 'first',
      formality: 'neutral',
      avgSentenceWords: 0,
      examples: [],
      language: null,
    },
    voiceTraits: [],
    companyFacts: [],
    doDont: { do: [], dont: [] },
    coverStyle: { mood: 'calm', shapes: 'waves', typography: 'sans' },
    palette: {
      colors: [],
      primary: '#1f2937',
      accent: '#3b82f6',
      background: '#ffffff',
      text: '#111827',
    },
  };
}

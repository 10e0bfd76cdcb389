/**
 * The corpus crawl runs of a project (stream `siteCorpus-<projectId>`): facts about each run, its
 * counts and why it stopped. The pages and their texts live beside the log (docs/site-corpus.md);
 * no event carries a page's text.
 */
export type CorpusRunCounts = {
  known: number;
  read: number;
  unchanged: number;
  failed: number;
  skipped: number;
};

export type SiteCorpusEvent =
  | {
      type: 'SiteCorpusCrawlRequested';
      data: {
        projectId: string;
        runId: string;
        reason: 'brand_crawled' | 'scheduled';
        at: string;
      };
    }
  | {
      type: 'SiteCorpusCrawled';
      data: {
        projectId: string;
        runId: string;
        counts: CorpusRunCounts;
        stopped: 'finished' | 'deadline';
        at: string;
      };
    };

export type SiteCorpus =
  | { status: 'none' }
  | {
      status: 'running' | 'done';
      projectId: string;
      runId: string;
      requestedAt: string;
      finishedAt: string | null;
      counts: CorpusRunCounts | null;
    };

export const SITE_CORPUS_CATEGORY = 'siteCorpus';

export const initialSiteCorpus = (): SiteCorpus => ({ status: 'none' });

export function evolveSiteCorpus(state: SiteCorpus, event: SiteCorpusEvent): SiteCorpus {
  switch (event.type) {
    case 'SiteCorpusCrawlRequested':
      return {
        status: 'running',
        projectId: event.data.projectId,
        runId: event.data.runId,
        requestedAt: event.data.at,
        finishedAt: null,
        counts: state.status === 'none' ? null : state.counts,
      };
    case 'SiteCorpusCrawled':
      if (state.status === 'none') return state;
      return { ...state, status: 'done', finishedAt: event.data.at, counts: event.data.counts };
    default:
      return state;
  }
}

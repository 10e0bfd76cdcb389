import type { StreamType } from '../../eventstore/handleCommand.ts';
import {
  evolveSiteCorpus,
  initialSiteCorpus,
  SITE_CORPUS_CATEGORY,
  type CorpusRunCounts,
  type SiteCorpus,
  type SiteCorpusEvent,
} from './siteCorpus.ts';

export type SiteCorpusCommand =
  | {
      type: 'RequestCorpusCrawl';
      projectId: string;
      runId: string;
      reason: 'brand_crawled' | 'scheduled';
      at: string;
    }
  | {
      type: 'RecordCorpusCrawled';
      runId: string;
      counts: CorpusRunCounts;
      stopped: 'finished' | 'deadline';
      at: string;
    };

export function decideSiteCorpus(command: SiteCorpusCommand, state: SiteCorpus): SiteCorpusEvent[] {
  switch (command.type) {
    case 'RequestCorpusCrawl': {
      if (state.status !== 'none' && state.runId === command.runId) return []; // asked already
      // A scheduled run waits for the running one; a new brand crawl supersedes it.
      if (state.status === 'running' && command.reason === 'scheduled') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'SiteCorpusCrawlRequested', data }];
    }
    case 'RecordCorpusCrawled': {
      if (state.status !== 'running' || state.runId !== command.runId) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'SiteCorpusCrawled', data: { projectId: state.projectId, ...data } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const siteCorpusStream: StreamType<SiteCorpus, SiteCorpusEvent, SiteCorpusCommand> = {
  category: SITE_CORPUS_CATEGORY,
  initial: initialSiteCorpus,
  evolve: evolveSiteCorpus,
  decide: decideSiteCorpus,
};

import { zeroUsage } from '../port.ts';
import type { ContentWriter, Generated } from '../writer.ts';
import { researchOffline } from './research.ts';
import { reviseOffline } from './revise.ts';
import { suggestTopicsOffline } from './topics.ts';
import { writeOffline } from './write.ts';

/** Named in every result and in the article's frontmatter, so offline output is recognisable. */
export const OFFLINE_MODEL = 'inkstream-offline-1';

const offline = <T extends object>(value: T): Generated<T> => ({
  ...value,
  usage: zeroUsage(),
  model: OFFLINE_MODEL,
  provider: 'offline',
});

/**
 * The writer used when no OPENAI_API_KEY is set: no network, no randomness. It composes real
 * output from the crawled pages and the brand profile; the same input gives the same output.
 */
export function createOfflineWriter(): ContentWriter {
  return {
    provider: 'offline',
    suggestTopics: async (input) => offline({ topics: suggestTopicsOffline(input) }),
    researchArticle: async (input) => offline(researchOffline(input)),
    writeArticle: async (input) => offline(writeOffline(input)),
    reviseArticle: async (input) => offline(reviseOffline(input)),
  };
}

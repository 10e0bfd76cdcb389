/**
 * The site corpus beside the log (docs/site-corpus.md): per project, every page the corpus crawl
 * knows (its frontier and its outcome), the page texts content-addressed by their SHA-256, and a
 * full-text index of their passages. Events name a run and its counts, never a page's text.
 */

/** Where a URL stands in the current run. `in_flight` rows found at a start were cut off by a stop: they go back to `queued`. */
export type PageState = 'queued' | 'in_flight' | 'read' | 'unchanged' | 'failed' | 'skipped';

export type QueuedUrl = {
  url: string;
  /** Lower leaves the frontier first. */
  priority: number;
  /** Links followed from a seed (home, blog, sitemap): bounds traps that link one page to the next forever. */
  depth: number;
  /** The sitemap's <lastmod>, as written. */
  lastmod?: string;
};

/** A URL claimed from the frontier, with what the last read of it left for a conditional request. */
export type ClaimedUrl = {
  url: string;
  depth: number;
  etag: string | null;
  lastModified: string | null;
  /** The sitemap <lastmod> of this run, and the one the page was last read under. */
  lastmod: string | null;
  readLastmod: string | null;
  /** The text hash of the last read; null when never read. */
  hash: string | null;
};

export type ReadPage = {
  url: string;
  title: string;
  description: string | null;
  headings: string[];
  /** The readable text (inert Markdown); stored once per distinct hash. */
  text: string;
  etag: string | null;
  lastModified: string | null;
};

export type CorpusCounts = {
  known: number;
  read: number;
  unchanged: number;
  failed: number;
  skipped: number;
  queued: number;
};

export type CorpusRun = {
  projectId: string;
  runId: string;
  status: 'running' | 'done';
  startedAt: string;
  finishedAt: string | null;
  /** Why the crawl stopped before the frontier was empty (the page cap, the deadline), or a notable bound it hit. */
  notes: string[];
  counts: CorpusCounts;
  /** Pages read or found unchanged per second of this run so far (for the estimate). */
  sitemapDone: boolean;
};

export type CorpusPage = {
  url: string;
  state: PageState;
  title: string;
  description: string | null;
  headings: string[];
  hash: string | null;
  reason: string | null;
  fetchedAt: string | null;
};

export type PassageHit = {
  url: string;
  title: string;
  page: CorpusPage;
  heading: string;
  /** The passage's text (inert Markdown), as stored. */
  text: string;
  hash: string;
};

export type SearchOptions = {
  limit: number;
  offset?: number;
  /** Passages holding any of the words (candidates for a closer comparison), not all of them. */
  anyWord?: boolean;
};

export interface SiteCorpusStore {
  /**
   * Starts (or resumes) a run: an unknown `runId` re-queues every known page of the project for
   * this run, keeping what a conditional request needs; a known one puts its `in_flight` rows back
   * in the queue (they were cut off by a stop). Answers the run.
   */
  startRun(projectId: string, runId: string, at: string): CorpusRun;
  run(projectId: string): CorpusRun | null;
  /** Finished runs whose end is at or before `finishedBy` (ISO), oldest first: candidates for a scheduled re-crawl. */
  finishedRuns(finishedBy: string, limit: number): Array<{ projectId: string; finishedAt: string }>;
  markSitemapDone(projectId: string): void;
  addNote(projectId: string, note: string): void;
  finishRun(projectId: string, at: string): CorpusRun;
  /**
   * Adds URLs not yet known while the project knows fewer than `cap` (a known one only gets the
   * sitemap's lastmod); answers how many were added and how many new ones the cap refused.
   */
  enqueue(
    projectId: string,
    urls: readonly QueuedUrl[],
    cap?: number,
  ): { added: number; refused: number };
  known(projectId: string): number;
  /** Takes up to `limit` queued URLs, lowest priority first, and marks them in flight. */
  claim(projectId: string, limit: number): ClaimedUrl[];
  recordRead(projectId: string, page: ReadPage, lastmod: string | null, at: string): string;
  recordUnchanged(projectId: string, url: string, at: string): void;
  recordFailed(projectId: string, url: string, reason: string, at: string): void;
  recordSkipped(projectId: string, url: string, reason: string): void;
  /** The page's text by URL, when it was read. */
  pageText(projectId: string, url: string): string | null;
  pages(projectId: string, options: { limit: number; afterUrl?: string }): CorpusPage[];
  /** Passages of the project's live pages (read or unchanged) matching every word of `query`, best first. */
  search(projectId: string, query: string, options: SearchOptions): PassageHit[];
  close(): void;
}

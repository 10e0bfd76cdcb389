import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import { reactionContext } from '../../../consumers/commandContext.ts';
import type { PartitionedHandler } from '../../../consumers/partitioned.ts';
import { projectStream } from '../../../domain/projects/decide.ts';
import { DEFAULT_CRAWL_SETTINGS } from '../../../domain/projects/settings.ts';
import { siteCorpusStream } from '../../../domain/siteCorpus/decide.ts';
import { SITE_CORPUS_CATEGORY } from '../../../domain/siteCorpus/siteCorpus.ts';
import { crawlCorpus } from '../../../integrations/crawler/corpusCrawl.ts';
import type { PipelineContext } from '../context.ts';
import { crawlPageCeiling } from './ceiling.ts';

export const CORPUS_WORKER = 'pipeline.corpus';
/** Corpus crawls running at once in a process: each may take hours, and is polite per origin on its own. */
const CORPUS_SLOTS = 2;

/**
 * The corpus crawl in the background. A finished brand crawl asks for a run (the brand came
 * from its sample; the rest of the site is read here), as does the re-crawl schedule; the run
 * streams pages into the corpus store and records its counts when the frontier is empty. A stop
 * leaves the event unhandled, so the restarted process resumes the run from the store.
 */
export function corpusProcess(ctx: PipelineContext): PartitionedHandler {
  const { platform } = ctx;
  return {
    name: CORPUS_WORKER,
    categories: ['project', SITE_CORPUS_CATEGORY],
    types: ['BrandCrawled', 'SiteCorpusCrawlRequested'],
    concurrency: CORPUS_SLOTS,
    async handle(event: StoredEvent) {
      const { projectId } = event.data as { projectId: string };
      if (event.type === 'BrandCrawled') {
        const { crawlId } = event.data as { crawlId: string };
        await platform.commands.execute(
          siteCorpusStream,
          projectId,
          {
            type: 'RequestCorpusCrawl',
            projectId,
            runId: `cor_${crawlId}`,
            reason: 'brand_crawled',
            at: platform.clock.now(),
          },
          reactionContext(event, CORPUS_WORKER, 'request'),
        );
        return;
      }
      const { runId } = event.data as { runId: string };
      const { state: corpus } = await loadStream(platform.eventStore, siteCorpusStream, projectId);
      if (corpus.status !== 'running' || corpus.runId !== runId) return;
      const { state: project } = await loadStream(platform.eventStore, projectStream, projectId);
      if (project.status === 'none') return;
      const settings = project.settings.crawl ?? DEFAULT_CRAWL_SETTINGS;
      const ceiling = await crawlPageCeiling(platform, project.accountId);
      const store = platform.siteCorpus();
      store.startRun(projectId, runId, platform.clock.now());
      if (settings.maxPages > ceiling)
        store.addNote(
          projectId,
          `crawl.maxPages is ${settings.maxPages}; the account's plan allows ${ceiling} pages, so the corpus keeps ${ceiling}.`,
        );
      const outcome = await crawlCorpus(
        {
          projectId,
          websiteUrl: project.websiteUrl,
          blogUrl: project.blogUrl ?? undefined,
          sitemapUrl: project.sitemapUrl ?? undefined,
          maxPages: Math.min(settings.maxPages, ceiling),
          concurrency: platform.config.INKSTREAM_CRAWL_CONCURRENCY_PER_ORIGIN,
          now: () => platform.clock.now(),
          signal: ctx.signal,
        },
        ctx.http,
        store,
      );
      if (outcome.stopped === 'aborted')
        throw ctx.signal.reason ?? new Error('corpus crawl stopped');
      const run = store.finishRun(projectId, platform.clock.now());
      const { known, read, unchanged, failed, skipped } = run.counts;
      await platform.commands.execute(
        siteCorpusStream,
        projectId,
        {
          type: 'RecordCorpusCrawled',
          runId,
          counts: { known, read, unchanged, failed, skipped },
          stopped: outcome.stopped,
          at: platform.clock.now(),
        },
        reactionContext(event, CORPUS_WORKER, 'record'),
      );
    },
  };
}

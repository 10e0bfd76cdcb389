import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import { crawlSite } from '../../../integrations/crawler/index.ts';
import { learnBrand } from './learn/learnBrand.ts';
import { BrandProfile, type CrawledPageSummary } from '../../../domain/projects/brand.ts';
import { projectStream } from '../../../domain/projects/decide.ts';
import type { ActiveProject } from '../../../domain/projects/project.ts';
import { attempt } from '../attempt.ts';
import { pageSummaries, toPublicBrand } from './brandMapping.ts';
import { reactionContext } from '../../../consumers/commandContext.ts';
import type { PipelineContext } from '../context.ts';
import { describeError } from '../failure.ts';
import { isLlmError } from '../../../integrations/llm/port.ts';
import type { PartitionedHandler } from '../../../consumers/partitioned.ts';
import { refineVoice } from './refineVoice.ts';

export const CRAWL_WORKER = 'pipeline.crawl';

const MAX_FALLBACK_REASON = 600;

/**
 * Why the crawl kept the measured voice although a model is set up, for the crawl's record: the
 * model's status and the port's own words for the failure (never the provider's text), and what to do.
 */
export function voiceFallbackReason(error: unknown): string {
  const answered =
    isLlmError(error) && error.status !== undefined ? `answered ${error.status}` : 'failed';
  const what = describeError(error).replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  const reason = `The voice was measured from the site because the model ${answered}: ${what}. Re-crawl once the model answers to have it refine the voice.`;
  return reason.length > MAX_FALLBACK_REASON
    ? `${reason.slice(0, MAX_FALLBACK_REASON - 1)}…`
    : reason;
}

type Crawled =
  | { failure: string }
  | {
      brand: BrandProfile;
      pages: CrawledPageSummary[];
      sitemapUrls: string[];
      provider: string;
      model: string | null;
      voiceFallbackReason?: string;
    };

/**
 * The brand crawl: the site is crawled (robots, sitemap, page cap, deadline), the brand learned
 * from its own text and CSS, optionally refined by the model, checked against the public brand
 * shape, and recorded with the page summaries. Parts a user edited are kept by the decision.
 */
export function crawlProcess(ctx: PipelineContext): PartitionedHandler {
  const { platform } = ctx;

  async function crawl(project: ActiveProject): Promise<Crawled> {
    // Projects on one site crawl it in turn; the wait is not part of the crawl's deadline.
    const result = await ctx.crawlSites.run(
      new URL(project.websiteUrl).host,
      () =>
        crawlSite(
          {
            websiteUrl: project.websiteUrl,
            blogUrl: project.blogUrl ?? undefined,
            sitemapUrl: project.sitemapUrl ?? undefined,
            pageCap: ctx.crawl.pageCap,
            deadlineMs: ctx.crawl.deadlineMs,
          },
          ctx.http,
        ),
      { signal: ctx.signal },
    );
    if (result.failure !== undefined)
      return { failure: result.failure || 'No page could be read.' };
    const pages = pageSummaries(result.pages);
    const crawledUrls = new Set(pages.map((page) => page.url));
    const sitemapUrls = (result.sitemapUrls ?? []).filter((url) => !crawledUrls.has(url));
    const measured = toPublicBrand(learnBrand(result));
    if (!ctx.llm) return { brand: measured, pages, sitemapUrls, provider: 'offline', model: null };
    const refined = await attempt(() =>
      refineVoice(ctx.llm!, measured, pages, ctx.modelFor(project.settings)),
    );
    if (!refined.ok) {
      ctx.logger.warn(
        { err: refined.error, projectId: project.id },
        'voice refinement failed; keeping the measured voice',
      );
      return {
        brand: measured,
        pages,
        sitemapUrls,
        provider: 'offline',
        model: null,
        voiceFallbackReason: voiceFallbackReason(refined.error),
      };
    }
    return {
      brand: BrandProfile.parse(refined.value.brand),
      pages,
      sitemapUrls,
      provider: ctx.llm.provider,
      model: refined.value.model,
    };
  }

  return {
    name: CRAWL_WORKER,
    categories: ['project'],
    types: ['BrandCrawlRequested'],
    concurrency: ctx.concurrency,
    async handle(event: StoredEvent) {
      const { projectId, crawlId } = event.data as { projectId: string; crawlId: string };
      const { state: project } = await loadStream(platform.eventStore, projectStream, projectId);
      if (
        project.status === 'none' ||
        project.crawl.crawlId !== crawlId ||
        project.crawl.status !== 'pending'
      )
        return;
      const outcome = await attempt(() => crawl(project), ctx.signal);
      const at = platform.clock.now();
      if (!outcome.ok || 'failure' in outcome.value) {
        if (!outcome.ok) ctx.logger.warn({ err: outcome.error, projectId }, 'brand crawl failed');
        const reason = outcome.ok
          ? (outcome.value as { failure: string }).failure
          : `The crawl of ${project.websiteUrl} failed: ${describeError(outcome.error)}. Check the address, then POST /api/v1/projects/${projectId}/crawl.`;
        await platform.commands.execute(
          projectStream,
          projectId,
          { type: 'RecordCrawlFailed', crawlId, reason, at },
          reactionContext(event, CRAWL_WORKER, 'fail'),
        );
        return;
      }
      const { brand, pages, sitemapUrls, provider, model, voiceFallbackReason } = outcome.value;
      await platform.commands.execute(
        projectStream,
        projectId,
        {
          type: 'RecordBrandCrawled',
          crawlId,
          learned: brand,
          pages,
          sitemapUrls,
          provider,
          model,
          at,
          ...(voiceFallbackReason ? { voiceFallbackReason } : {}),
        },
        reactionContext(event, CRAWL_WORKER, 'record'),
      );
    },
  };
}

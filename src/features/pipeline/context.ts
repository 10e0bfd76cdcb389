import type { Logger } from 'pino';
import { createLimiter, type Limiter } from '../../core/limiter.ts';
import { allowedModels, modelToUse } from '../../integrations/llm/modelAllowList.ts';
import { createContentWriter, llmConfigOf } from '../../integrations/llm/select.ts';
import type { LlmPort } from '../../integrations/llm/port.ts';
import type { ContentWriter } from '../../integrations/llm/writer.ts';
import { loadPriceTable, type PriceTable } from '../../integrations/llm/prices.ts';
import { createSafeHttpClient, type SafeHttpClient } from '../../integrations/safeHttp/index.ts';
import type { Settings } from '../../domain/projects/settings.ts';
import { stopSwitch, type StopSwitch } from '../../consumers/worker.ts';
import type { Platform } from '../../platform.ts';

/**
 * What every process manager of the pipeline shares, composed once: the content writer (a model
 * when OPENAI_API_KEY is set, the offline writer otherwise), the SSRF-guarded HTTP client, and
 * the limits of the crawl.
 */
export type PipelineContext = {
  platform: Platform;
  logger: Logger;
  writer: ContentWriter;
  /** Present only with a real model: used to refine the learned voice. */
  llm?: LlmPort;
  http: Pick<SafeHttpClient, 'request'>;
  /** Estimated prices of models, for the cost of each step (docs/llm.md). */
  prices: PriceTable;
  /** The project's model, or the server's default; undefined for the offline writer. */
  modelFor(settings: Settings): string | undefined;
  crawl: { pageCap: number; deadlineMs: number };
  /** One crawl at a time per site (its host): a second crawl of the same site waits for the first. */
  crawlSites: Limiter;
  /** Steps (of articles or projects) worked on at once by one process manager; model calls are bounded by the provider's limiter. */
  concurrency: number;
  /** Aborted when the pipeline stops, so waits end and the event is handled again after the restart. */
  readonly signal: AbortSignal;
  /** Started and stopped with the background work; a stop closes the HTTP client, a restart opens a new one. */
  lifecycle: StopSwitch['worker'];
};

export type PipelineOverrides = Partial<
  Pick<PipelineContext, 'writer' | 'llm' | 'http' | 'concurrency' | 'prices'>
> & {
  crawl?: Partial<PipelineContext['crawl']>;
};

export const CRAWL_PAGE_CAP = 25;

export function createPipelineContext(
  platform: Platform,
  overrides: PipelineOverrides = {},
): PipelineContext {
  const { config } = platform;
  const composed = overrides.writer
    ? { writer: overrides.writer, llm: overrides.llm }
    : createContentWriter(llmConfigOf(config));
  const prices =
    overrides.prices ??
    loadPriceTable({ json: config.INKSTREAM_LLM_PRICES, file: config.INKSTREAM_LLM_PRICES_FILE });
  const logger = platform.logger.child({
    component: 'pipeline',
    provider: composed.writer.provider,
  });
  const allowed = allowedModels(config.INKSTREAM_DEFAULT_MODEL, config.INKSTREAM_ALLOWED_MODELS);
  // Kept across stop and start, like the crawls they bound.
  const crawlOrigins = createLimiter({
    concurrency: config.INKSTREAM_CRAWL_CONCURRENCY_PER_ORIGIN,
  });
  const crawlSites = createLimiter({ concurrency: 1 });
  const newHttp = () =>
    createSafeHttpClient({ destinations: platform.destinations, originLimiter: crawlOrigins });
  let ownHttp = overrides.http ? null : newHttp();
  // Stopping closes the client, so requests in flight end and their crawl is redone after the restart.
  const lifecycle = stopSwitch('pipeline.lifecycle', {
    onRestart() {
      if (!overrides.http) ownHttp = newHttp();
    },
    async onStop() {
      await ownHttp?.close();
    },
  });
  return {
    platform,
    logger,
    writer: composed.writer,
    llm: composed.llm,
    prices,
    get http() {
      return overrides.http ?? ownHttp!;
    },
    modelFor(settings) {
      if (composed.writer.provider === 'offline') return undefined;
      const { model, disallowed } = modelToUse(
        settings.model,
        config.INKSTREAM_DEFAULT_MODEL,
        allowed,
      );
      if (disallowed)
        logger.warn(
          { chosen: settings.model, used: model },
          "the project's model is not on INKSTREAM_ALLOWED_MODELS; using the default model",
        );
      return model;
    },
    crawl: {
      pageCap: overrides.crawl?.pageCap ?? CRAWL_PAGE_CAP,
      deadlineMs: overrides.crawl?.deadlineMs ?? 120_000,
    },
    crawlSites,
    concurrency: overrides.concurrency ?? config.INKSTREAM_PIPELINE_SLOTS,
    get signal() {
      return lifecycle.signal;
    },
    lifecycle: lifecycle.worker,
  };
}

import { partitionedConsumer } from '../../consumers/partitioned.ts';
import type { Feature } from '../feature.ts';
import { brandRoutes } from './brand/api.ts';
import { coverSampleRoutes } from './brand/coverSampleApi.ts';
import { crawlProcess } from './brand/crawl.ts';
import { corpusProcess } from './corpus/corpusProcess.ts';
import { pagesRoutes } from './corpus/pagesApi.ts';
import { recrawlWorker } from './corpus/recrawlScheduler.ts';
import type { Clock } from '../../core/clock.ts';
import { createPipelineContext, type PipelineOverrides } from './context.ts';
import { schedulerWorker } from './schedule/scheduler.ts';
import { researchProcess } from './topicResearch/research.ts';
import { reviseProcess } from './writing/revise.ts';
import { writeProcess } from './writing/write.ts';

export type PipelineOptions = PipelineOverrides & {
  schedulerTickMs?: number;
  /** The re-crawl schedule's pass interval and clock (tests move the clock). */
  recrawl?: { intervalMs?: number; clock?: Clock };
};

/**
 * The content pipeline: crawling and learning the brand (brand/, with the brand API), topic
 * research (topicResearch/), writing and revising articles (writing/), and the cadence scheduler
 * (schedule/), sharing one composed context. Stopping the work (which happens before the
 * consumers stop) ends any wait in the pipeline and closes its HTTP client; starting it again
 * (the lease regained) opens a new one.
 */
export function pipelineFeature(options: PipelineOptions = {}): Feature {
  return {
    name: 'pipeline',
    routes: [...brandRoutes, ...coverSampleRoutes, ...pagesRoutes],
    projections: [],
    background(platform) {
      const ctx = createPipelineContext(platform, options);
      const processes = [
        crawlProcess(ctx),
        researchProcess(ctx),
        writeProcess(ctx),
        reviseProcess(ctx),
        corpusProcess(ctx),
      ];
      return {
        consumers: processes.map((process) => partitionedConsumer(process, platform)),
        workers: [
          ctx.lifecycle,
          schedulerWorker({ intervalMs: options.schedulerTickMs }),
          recrawlWorker(options.recrawl),
        ],
      };
    },
  };
}

export type { PipelineOverrides };

import type { Worker } from '../../app/background.ts';
import type { ConsumerDefinition } from '../../consumers/runner.ts';
import type { Platform } from '../../platform.ts';
import { createPipelineContext, type PipelineOverrides } from './context.ts';
import { crawlProcess } from './brand/crawl.ts';
import { partitionedConsumer } from '../../consumers/partitioned.ts';
import { researchProcess } from './topicResearch/research.ts';
import { reviseProcess } from './writing/revise.ts';
import { schedulerWorker } from './schedule/scheduler.ts';
import { writeProcess } from './writing/write.ts';
import { budgetResumeProcess, monthlyBudgetResume } from '../usage/resume.ts';

export type PipelineOptions = PipelineOverrides & { schedulerTickMs?: number };

/**
 * The content pipeline's process managers (crawl, topic research, writing, revisions) and the
 * cadence scheduler, sharing one composed context. Stopping the workers (which happens before
 * the consumers stop) ends any wait in the pipeline and closes its HTTP client; starting them
 * again (the lease regained) opens a new one.
 */
export function pipelineJobs(platform: Platform, options: PipelineOptions = {}): { consumers: ConsumerDefinition[]; workers: Worker[] } {
  const ctx = createPipelineContext(platform, options);
  const processes = [crawlProcess(ctx), researchProcess(ctx), writeProcess(ctx), reviseProcess(ctx), budgetResumeProcess(platform, ctx.concurrency)];
  const lifecycle: Worker = {
    name: 'pipeline.lifecycle',
    async start() {
      ctx.start();
      return { stop: () => ctx.stop() };
    },
  };
  return {
    consumers: processes.map((process) => partitionedConsumer(process, platform)),
    workers: [lifecycle, schedulerWorker({ intervalMs: options.schedulerTickMs }), monthlyBudgetResume()],
  };
}

export type { PipelineOverrides };

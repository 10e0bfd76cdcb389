import type { Worker } from '../../../consumers/worker.ts';
import type { Clock } from '../../../core/clock.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import { projectStream } from '../../../domain/projects/decide.ts';
import { DEFAULT_CRAWL_SETTINGS } from '../../../domain/projects/settings.ts';
import { siteCorpusStream } from '../../../domain/siteCorpus/decide.ts';
import type { Platform } from '../../../platform.ts';

export const RECRAWL_WORKER = 'pipeline.recrawl';
export const RECRAWL_TICK_MS = 10 * 60_000;
const DAY_MS = 86_400_000;
const PER_TICK = 200;

/**
 * One pass of the re-crawl schedule: every project whose last corpus run finished at least
 * crawl.recrawlDays ago (and is not paused, nor set to 0) gets a new run, asked once per finished
 * run (the run id is derived from it, so a second pass or a second process asks nothing more).
 */
export async function recrawlTick(platform: Platform, clock: Clock): Promise<number> {
  const now = clock.nowMs();
  const store = platform.siteCorpus();
  let asked = 0;
  // Runs that finished at least a day ago; each project's own interval is checked below.
  for (const run of store.finishedRuns(new Date(now - DAY_MS).toISOString(), PER_TICK)) {
    const { state: project } = await loadStream(platform.eventStore, projectStream, run.projectId);
    if (project.status !== 'active') continue;
    const { recrawlDays } = project.settings.crawl ?? DEFAULT_CRAWL_SETTINGS;
    if (recrawlDays === 0 || Date.parse(run.finishedAt) + recrawlDays * DAY_MS > now) continue;
    const runId = `cor_s${Date.parse(run.finishedAt)}_${run.projectId}`;
    const result = await platform.commands.execute(
      siteCorpusStream,
      run.projectId,
      {
        type: 'RequestCorpusCrawl',
        projectId: run.projectId,
        runId,
        reason: 'scheduled',
        at: new Date(now).toISOString(),
      },
      {
        accountId: project.accountId,
        actor: { kind: 'system', worker: RECRAWL_WORKER },
        correlationId: runId,
        requestId: runId,
        commandId: `${RECRAWL_WORKER}:${runId}`,
      },
    );
    asked += result.events.length;
  }
  return asked;
}

/** The timer-driven worker: a pass every `intervalMs`, never two at once. */
export function recrawlWorker(
  options: { intervalMs?: number; clock?: Clock } = {},
): Worker<Platform> {
  return {
    name: RECRAWL_WORKER,
    async start(platform) {
      const log = platform.logger.child({ worker: RECRAWL_WORKER });
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<unknown> = Promise.resolve();
      const loop = () => {
        running = recrawlTick(platform, options.clock ?? platform.clock)
          .catch((error) =>
            log.error({ err: error }, 're-crawl pass failed; the next one tries again'),
          )
          .finally(() => {
            if (!stopped) timer = setTimeout(loop, options.intervalMs ?? RECRAWL_TICK_MS);
          });
      };
      loop();
      return {
        async stop() {
          stopped = true;
          clearTimeout(timer);
          await running;
        },
      };
    },
  };
}

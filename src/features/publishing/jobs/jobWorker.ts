import type { Worker } from '../../../consumers/worker.ts';
import type { Platform } from '../../../platform.ts';
import { ensurePublishingCollections, PUBLISHING_JOBS } from '../collections.ts';
import { dueKey, dueMsOf } from '../../../readstore/dueKey.ts';
import { backoffMs, type JobDoc, type JobKind, type JobOutcome } from './jobs.ts';
import { publishingSignal } from '../signal.ts';

export const JOB_WORKER = 'publishing.jobs';

export type JobHandler = (job: JobDoc) => Promise<JobOutcome>;

export type JobWorkerOptions = {
  pollMs?: number;
  concurrency?: number;
  onStop?: () => Promise<void>;
};

/**
 * Runs due jobs from the queue, oldest due first: up to `concurrency` at once and one at a time
 * per article, so an article's PR is never written by two jobs together. Woken by the signal when
 * a job is queued or finishes; polls for jobs whose time (on the injected clock) has come.
 */
export function publishingJobWorker(
  handlers: Record<JobKind, JobHandler>,
  options: JobWorkerOptions = {},
): Worker {
  const pollMs = options.pollMs ?? 500;
  const concurrency = options.concurrency ?? 4;
  return {
    name: JOB_WORKER,
    async start(platform: Platform) {
      const { readStore, clock } = platform;
      const log = platform.logger.child({ worker: JOB_WORKER });
      await ensurePublishingCollections(readStore);
      const signal = publishingSignal(platform);
      const running = new Map<string, Promise<void>>(); // job id → run
      const busyArticles = new Set<string>();
      let stopping = false;
      let wake: (() => void) | null = null;
      let woken = false;
      const unsubscribe = signal.subscribe(() => {
        woken = true;
        wake?.();
      });

      async function settle(job: JobDoc, outcome: JobOutcome): Promise<void> {
        if (outcome.kind === 'done') return readStore.remove(PUBLISHING_JOBS, job.id);
        const nowMs = clock.nowMs();
        log.warn(
          {
            jobId: job.id,
            kind: job.kind,
            articleId: job.articleId,
            error: outcome.error,
            retryInMs: outcome.afterMs,
          },
          'publishing job will be tried again',
        );
        await readStore.save(PUBLISHING_JOBS, {
          ...job,
          attempts: job.attempts + 1,
          lastError: outcome.error,
          due: dueKey(nowMs + outcome.afterMs, job.id),
          updatedAt: new Date(nowMs).toISOString(),
        });
      }

      async function run(job: JobDoc): Promise<void> {
        let outcome: JobOutcome;
        try {
          outcome = await handlers[job.kind](job);
        } catch (error) {
          // The handlers record GitHub's failures themselves; what reaches here is the store's.
          log.error({ err: error, jobId: job.id }, 'publishing job failed unexpectedly');
          outcome = {
            kind: 'retry',
            afterMs: backoffMs(job.attempts + 1),
            error: error instanceof Error ? error.message : String(error),
          };
        }
        await settle(job, outcome);
      }

      function launch(job: JobDoc): void {
        busyArticles.add(job.articleId);
        const done = run(job)
          .catch((error) =>
            log.error(
              { err: error, jobId: job.id },
              'could not settle a publishing job; it runs again',
            ),
          )
          .finally(() => {
            running.delete(job.id);
            busyArticles.delete(job.articleId);
            woken = true;
            wake?.();
          });
        running.set(job.id, done);
      }

      async function launchDue(): Promise<void> {
        const page = await readStore.find<JobDoc>(PUBLISHING_JOBS, {
          sort: { field: 'due', direction: 'asc' },
          limit: 100,
        });
        const nowMs = clock.nowMs();
        for (const job of page.items) {
          if (running.size >= concurrency || dueMsOf(job.due) > nowMs) break;
          if (!running.has(job.id) && !busyArticles.has(job.articleId)) launch(job);
        }
      }

      const loop = (async () => {
        while (!stopping) {
          woken = false;
          try {
            await launchDue();
          } catch (error) {
            log.error({ err: error }, 'could not read the publishing queue');
          }
          if (stopping) break;
          if (!woken)
            await new Promise<void>((resolve) => {
              const timer = setTimeout(done, pollMs);
              function done() {
                clearTimeout(timer);
                wake = null;
                resolve();
              }
              wake = done;
            });
        }
      })();

      return {
        async stop() {
          stopping = true;
          unsubscribe();
          wake?.();
          await loop;
          await Promise.all(running.values());
          await options.onStop?.();
        },
      };
    },
  };
}

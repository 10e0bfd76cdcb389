import type { Logger } from 'pino';
import type { ProjectDoc } from '../../../../projections/projects.ts';
import type { TopicDoc } from '../../../../projections/topics.ts';
import type { Worker } from '../../../consumers/worker.ts';
import type { Clock } from '../../../core/clock.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { projectStream } from '../../../domain/projects/decide.ts';
import type { Platform } from '../../../platform.ts';
import { latestSlot, type CadenceSlot } from './cadence.ts';
import { derivedId } from '../derivedIds.ts';
import { readAllDocs } from '../readAllDocs.ts';
import { dueTopics } from './dueTopics.ts';
import { SCHEDULER_WORKER, schedulerContext, writeScheduledTopic } from './scheduledWrite.ts';

/** A slot missed by more than this (the server was down) is skipped rather than written late. */
export const CATCH_UP_MS = 12 * 3_600_000;
export const DEFAULT_TICK_MS = 30_000;

type Tick = { platform: Platform; now: number; at: string; log: Logger };

/** Highest priority first (0–100, higher is more urgent), then the oldest. */
const byPriority = (a: TopicDoc, b: TopicDoc) =>
  b.priority - a.priority || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

async function articleExists(platform: Platform, articleId: string): Promise<boolean> {
  return (await loadStream(platform.eventStore, articleStream, articleId)).state.status !== 'none';
}

async function writeDueTopics(
  tick: Tick,
  project: ProjectDoc,
  due: readonly TopicDoc[],
): Promise<void> {
  const { platform, log } = tick;
  for (const topic of due) {
    const key = `schedule:${topic.id}:${topic.scheduledFor}`;
    const articleId = derivedId('art', Date.parse(topic.scheduledFor!), key);
    const outcome = await writeScheduledTopic(platform, {
      accountId: project.accountId,
      topicId: topic.id,
      articleId,
      trigger: 'schedule',
      key,
      at: tick.at,
    });
    if (outcome === 'over_quota') {
      log.info(
        { projectId: project.id, topicId: topic.id },
        'scheduled topic not written: the account is over its monthly article quota',
      );
      return;
    }
    if (outcome === 'written')
      log.info({ projectId: project.id, topicId: topic.id, articleId }, 'scheduled topic written');
  }
}

async function requestResearchIfLow(
  tick: Tick,
  project: ProjectDoc,
  slot: CadenceSlot,
  approved: number,
  key: string,
): Promise<void> {
  const { platform, log } = tick;
  if (approved >= project.settings.cadence.minApprovedBacklog) return;
  const { state } = await loadStream(platform.eventStore, projectStream, project.id);
  const runId = derivedId('run', slot.at, key);
  if (
    state.status === 'none' ||
    state.research?.status === 'running' ||
    state.research?.runId === runId
  )
    return;
  await platform.commands.execute(
    projectStream,
    project.id,
    { type: 'RequestTopicResearch', runId, reason: 'cadence', at: tick.at },
    schedulerContext(project.accountId, key, 'research'),
  );
  log.info(
    { projectId: project.id, runId, approved },
    'approved backlog is low: research run requested',
  );
}

/** `approvedTopics` is read only when the slot still wants an article, not on every pass. */
async function writeCadenceSlot(
  tick: Tick,
  project: ProjectDoc,
  approvedTopics: () => Promise<TopicDoc[]>,
): Promise<void> {
  const { platform, now, log } = tick;
  const slot = latestSlot(project.settings.cadence, now);
  if (!slot || now - slot.at > CATCH_UP_MS) return;
  const slotKey = `cadence:${project.id}:${new Date(slot.at).toISOString()}`;
  const articleIds = Array.from({ length: slot.articles }, (_, i) =>
    derivedId('art', slot.at, `${slotKey}:${i}`),
  );
  const missing: string[] = [];
  for (const articleId of articleIds)
    if (!(await articleExists(platform, articleId))) missing.push(articleId);
  if (missing.length === 0) return;
  const candidates = (await approvedTopics())
    .filter((topic) => topic.status === 'approved')
    .sort(byPriority);
  await requestResearchIfLow(tick, project, slot, candidates.length - missing.length, slotKey);
  for (const articleId of missing) {
    let done = false;
    while (!done && candidates.length > 0) {
      const topic = candidates[0];
      const outcome = await writeScheduledTopic(platform, {
        accountId: project.accountId,
        topicId: topic.id,
        articleId,
        trigger: 'cadence',
        key: `${slotKey}:${articleId}`,
        at: tick.at,
      });
      if (outcome === 'over_quota') {
        log.info(
          { projectId: project.id, slot: new Date(slot.at).toISOString() },
          'cadence slot skipped: the account is over its monthly article quota',
        );
        return;
      }
      candidates.shift();
      done = outcome === 'written';
      if (done)
        log.info({ projectId: project.id, topicId: topic.id, articleId }, 'cadence: topic written');
    }
    if (!done) {
      log.info(
        { projectId: project.id, slot: new Date(slot.at).toISOString() },
        'cadence slot waits: no approved topic to write',
      );
      return;
    }
  }
}

/**
 * One pass of the scheduler: for every project that is not paused, topics whose scheduledFor has
 * come are written, and the current cadence slot gets its articles. Every write's ids derive from
 * the topic's schedule or the slot, so a pass repeated after a restart writes nothing twice.
 */
export async function schedulerTick(
  platform: Platform,
  log: Logger,
  clock: Clock = platform.clock,
): Promise<void> {
  await platform.readModels.catchUp(10_000);
  const now = clock.nowMs();
  const tick: Tick = { platform, now, at: new Date(now).toISOString(), log };
  const due = await dueTopics(platform.readStore, now);
  for (const project of await readAllDocs<ProjectDoc>(platform.readStore, 'projects')) {
    if (project.paused) continue;
    try {
      await writeDueTopics(tick, project, due.get(project.id) ?? []);
      if (project.settings.cadence.enabled) {
        await writeCadenceSlot(tick, project, () =>
          readAllDocs<TopicDoc>(platform.readStore, 'topics', {
            projectId: project.id,
            status: 'approved',
          }),
        );
      }
    } catch (error) {
      log.error(
        { err: error, projectId: project.id },
        'scheduler pass failed for a project; the next tick tries again',
      );
    }
  }
}

/** The timer-driven worker: a pass every `intervalMs`, never two at once. */
export function schedulerWorker(
  options: { intervalMs?: number; clock?: Clock } = {},
): Worker<Platform> {
  return {
    name: SCHEDULER_WORKER,
    async start(platform) {
      const log = platform.logger.child({ worker: SCHEDULER_WORKER });
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<void> = Promise.resolve();
      const loop = () => {
        running = schedulerTick(platform, log, options.clock)
          .catch((error) => log.error({ err: error }, 'scheduler pass failed'))
          .finally(() => {
            if (!stopped) timer = setTimeout(loop, options.intervalMs ?? DEFAULT_TICK_MS);
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

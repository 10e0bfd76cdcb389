/**
 * Grows a store the way a year of an agency's use would: one account, 100 projects, topics
 * (approved, rejected, scheduled, written) and articles through their pipeline states to a merged
 * pull request, and a webhook delivery per published article. Events go straight through the real
 * decide functions into the event store, then through the projections; nothing goes over HTTP.
 */
import { randomUUID } from 'node:crypto';
import { allProjections } from '../../src/app/features.ts';
import { accountIdForName } from '../../src/domain/accounts/account.ts';
import { accountStream } from '../../src/domain/accounts/decide.ts';
import { articleStream } from '../../src/domain/articles/decide.ts';
import { handleCommand, type CommandContext } from '../../src/eventstore/handleCommand.ts';
import type { EventStore } from '../../src/eventstore/port.ts';
import { projectStream } from '../../src/domain/projects/decide.ts';
import { DEFAULT_SETTINGS } from '../../src/domain/projects/settings.ts';
import type { ReadStore } from '../../src/readstore/port.ts';
import { createReadModels } from '../../src/consumers/readModels.ts';
import { topicStream } from '../../src/domain/topics/decide.ts';
import { DELIVERIES, ensureWebhookCollections } from '../../src/features/webhooks/collections.ts';
import type { DeliveryDoc } from '../../src/features/webhooks/delivery/delivery.ts';

export const ACCOUNT = 'bench';
export const PROJECTS = 100;
/** The project whose lists are measured as it grows, and one that stays small. */
export const BIG = 0;
export const SMALL = 1;
const SMALL_TOPICS = 20;

const pad = (n: number) => String(n).padStart(26, '0');
export const projectIdOf = (i: number) => `prj_${pad(i)}`;
const YEAR_MS = 365 * 86_400_000;
/** About how many events a topic unit appends, on average over the fates below. */
const EVENTS_PER_UNIT = 4.8;
const generation = {
  provider: 'offline',
  model: null,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
};
const MDX = `---\ntitle: A realistic article\n---\n\n${'Plain, useful prose about the subject, with a source or two. '.repeat(40)}\n`;

/** `eventsPlanned`: the units' times are spread over the year before `endMs`, as a year of use would be. */
export function createGrower(
  eventStore: EventStore,
  readStore: ReadStore,
  options: { eventsPlanned: number; endMs: number },
) {
  const stepMs = YEAR_MS / Math.max(1, options.eventsPlanned / EVENTS_PER_UNIT);
  const at = (unit: number) =>
    new Date(Math.min(options.endMs, options.endMs - YEAR_MS + unit * stepMs)).toISOString();
  const accountId = accountIdForName(ACCOUNT);
  // Command ids (and so event ids) unique to this grower; units (topic numbers) continue after the log's head.
  const runId = randomUUID();
  let step = 0;
  let unit = 0;
  let deliveries = 0;
  let ticks = 0; // topics made so far, which place each in the year: ids continue after the head, times after the last topic
  const ctx = (): CommandContext => ({
    accountId,
    actor: { kind: 'system', worker: 'bench' },
    correlationId: 'bench',
    requestId: 'bench',
    commandId: `grow:${runId}:${step++}`,
  });
  const run = <S, E, C>(
    type: Parameters<
      typeof handleCommand<S, E & { type: string; data: Record<string, unknown> }, C>
    >[1],
    id: string,
    command: C,
  ) => handleCommand(eventStore, type, id, command, ctx());
  const readModels = createReadModels(eventStore, readStore, allProjections);

  async function topic(projectIndex: number): Promise<void> {
    const n = unit++;
    const projectId = projectIdOf(projectIndex);
    const topicId = `tpc_${pad(n)}`;
    const when = at(ticks++);
    await run(topicStream, topicId, {
      type: 'CreateTopic',
      topic: {
        topicId,
        projectId,
        title: `Topic ${n} about a subject`,
        keyword: `keyword ${n % 500}`,
        brief: null,
        status: 'approved',
        scheduledFor: null,
        priority: n % 100,
        source: 'api',
        runId: null,
        rationale: null,
        at: when,
      },
    });
    const fate = n % 10;
    if (fate < 2) {
      await run(topicStream, topicId, { type: 'UpdateTopic', status: 'rejected', at: when });
      return;
    }
    if (fate === 2) {
      await run(topicStream, topicId, {
        type: 'UpdateTopic',
        scheduledFor: new Date(Date.parse(when) + 86_400_000 * 400).toISOString(),
        at: when,
      });
      return;
    }
    if (fate < 6) return;
    const articleId = `art_${pad(n)}`;
    const title = `Topic ${n} about a subject`;
    const path = `content/blog/topic-${n}.mdx`;
    await run(topicStream, topicId, {
      type: 'MarkTopicWritten',
      articleId,
      trigger: 'api',
      at: when,
    });
    await run(articleStream, articleId, {
      type: 'QueueArticle',
      articleId,
      topicId,
      projectId,
      title,
      keyword: null,
      brief: null,
      trigger: 'api',
      at: when,
    });
    await run(articleStream, articleId, { type: 'StartResearch', at: when });
    await run(articleStream, articleId, {
      type: 'RecordResearch',
      outline: [{ heading: 'Why', points: ['one', 'two'] }],
      keyPoints: ['a point'],
      sources: [{ url: 'https://example.com/source', title: 'A source' }],
      generation,
      at: when,
    });
    await run(articleStream, articleId, {
      type: 'RecordDraft',
      version: 1,
      mdx: MDX,
      slug: `topic-${n}`,
      title,
      wordCount: 400,
      cover: null,
      purpose: 'write',
      generation,
      at: when,
    });
    await run(articleStream, articleId, { type: 'ApproveArticle', mode: 'pr', at: when });
    await run(articleStream, articleId, {
      type: 'RecordPublishTarget',
      slug: `topic-${n}`,
      path,
      branch: `inkstream/topic-${n}`,
      at: when,
    });
    await run(articleStream, articleId, {
      type: 'RecordPullRequest',
      prNumber: n,
      prUrl: `https://github.com/acme/site/pull/${n}`,
      branch: `inkstream/topic-${n}`,
      commitSha: 'a'.repeat(40),
      path,
      at: when,
    });
    await run(articleStream, articleId, {
      type: 'RecordMerged',
      commitSha: 'b'.repeat(40),
      prUrl: `https://github.com/acme/site/pull/${n}`,
      path,
      mergedBy: 'editor',
      at: when,
    });
    await delivered(articleId, when);
  }

  async function delivered(articleId: string, when: string): Promise<void> {
    const id = `dlv_${articleId.slice(4)}`;
    const doc: DeliveryDoc = {
      id,
      accountId,
      endpointId: 'whk_bench',
      eventId: `evt_${articleId.slice(4)}`,
      eventType: 'article.published',
      body: null,
      seq: when,
      status: 'succeeded',
      attempts: [{ at: when, statusCode: 200, latencyMs: 40, responseBody: 'ok', error: null }],
      runAttempts: 0,
      nextAttemptAt: null,
      failureReason: null,
      queue: null,
      due: null,
      rev: 1,
      createdAt: when,
      updatedAt: when,
    };
    await readStore.commit([{ kind: 'insert_if_absent', collection: DELIVERIES, id, doc }]);
    deliveries++;
  }

  return {
    /** Deliveries written so far. */
    get deliveries() {
      return deliveries;
    },
    /** The account, the projects, and the small project's topics: the near-empty store. */
    async seed(): Promise<void> {
      await ensureWebhookCollections(readStore);
      await run(accountStream, accountId, {
        type: 'EnsureAccount',
        accountId,
        name: ACCOUNT,
        plan: 'unlimited',
        at: at(0),
      });
      for (let i = 0; i < PROJECTS; i++) {
        await run(projectStream, projectIdOf(i), {
          type: 'CreateProject',
          projectId: projectIdOf(i),
          accountId,
          name: `Site ${i}`,
          websiteUrl: `https://site-${i}.example`,
          blogUrl: null,
          sitemapUrl: null,
          settings: DEFAULT_SETTINGS,
          crawlId: `crl-${i}`,
          at: at(0),
        });
      }
      for (let i = 0; i < SMALL_TOPICS; i++) await topic(SMALL);
      for (let i = 0; i < 200; i++) await topic(BIG);
      await readModels.catchUp(0);
    },
    /** Grows until the log holds `events` events: a quarter of the topics go to the big project, the rest spread over the others. */
    async growTo(events: number, onProgress: (head: bigint) => void): Promise<void> {
      await ensureWebhookCollections(readStore);
      let head = await eventStore.headPosition();
      unit = Math.max(unit, Number(head) + 1);
      for (let i = 0; head + 1n < BigInt(events); ) {
        for (let j = 0; j < 500; j++, i++)
          await topic(i % 4 === 0 ? BIG : 2 + (i % (PROJECTS - 2)));
        await readModels.catchUp(0);
        onProgress((head = await eventStore.headPosition()));
      }
      await readModels.catchUp(0);
    },
  };
}

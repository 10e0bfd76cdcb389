import type { ArticleEvent } from '../../../domain/articles/article.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { eventHandlerConsumer } from '../../../consumers/define.ts';
import type { ConsumerDefinition } from '../../../consumers/runner.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import type { ReadModelWrite } from '../../../readstore/port.ts';
import type { Platform } from '../../../platform.ts';
import { publicEventsFor } from '../../webhooks/feed/publicEvents.ts';
import { ensurePublishingCollections, PUBLISHING_JOBS } from '../collections.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import { newJob, type JobDoc } from './jobs.ts';
import { publishingSignal } from '../signal.ts';
import { rejectsInkstreamFile } from '../build/buildCorrection.ts';

export const PUBLISHING_FEEDER = 'publishing.feeder';

const TYPES: readonly ArticleEvent['type'][] = [
  'ArticlePublishRequested',
  'ArticleRetried',
  'ArticleRevised',
  'ArticleRevisionFailed',
  'ArticleMerged',
  'ArticleDrafted',
  'ArticleBuildObserved',
  'ArticleBuildCorrectionApplyRequested',
];

/**
 * Turns article events into the publisher's work: a publish job for each publish request (or
 * retry of a failed publication), a revision job for each revision (committed if the article's
 * PR is open; a failed one answered there), a post-publish hook call for each publication, and, after a refresh draft, the
 * refresh's publish request. Jobs are inserted (if absent, under ids derived from what caused
 * them) with the consumer's checkpoint: none is lost, none is doubled.
 */
/** A replayed refresh draft must not start the publication of a later refresh still being written. */
function isLatestRefreshStep(stored: StoredEvent, events: readonly StoredEvent[]): boolean {
  return (
    events.findLast(
      (event) => event.type === 'ArticleDrafted' || event.type === 'ArticleRefreshRequested',
    )?.id === stored.id
  );
}

export function publishingFeeder(platform: Platform): ConsumerDefinition {
  const { eventStore, clock } = platform;
  const signal = publishingSignal(platform);

  const insert = (job: JobDoc): ReadModelWrite[] => [
    { kind: 'insert_if_absent', collection: PUBLISHING_JOBS, id: job.id, doc: job },
  ];

  async function hookJob(
    stored: StoredEvent,
    projectId: string,
    articleId: string,
  ): Promise<ReadModelWrite[]> {
    const { state } = await loadStream(eventStore, integrationsStream, projectId);
    if (!state.postPublishHook) return [];
    const published = (await publicEventsFor(eventStore, stored)).find(
      (outgoing) => outgoing.envelope.type === 'article.published',
    );
    if (!published) return [];
    const { envelope, body } = published;
    return insert(
      newJob({
        id: `hook:${envelope.id}`,
        kind: 'hook',
        event: stored,
        projectId,
        articleId,
        nowMs: clock.nowMs(),
        hook: { eventId: envelope.id, body },
      }),
    );
  }

  const inner = eventHandlerConsumer(
    {
      name: PUBLISHING_FEEDER,
      categories: ['article'],
      types: TYPES,
      async handle(stored) {
        await ensurePublishingCollections(platform.readStore);
        const event = stored as unknown as ArticleEvent;
        const articleId = event.data.articleId;
        const { state: article, events } = await loadStream(eventStore, articleStream, articleId);
        if (article.status === 'none') return [];
        const job = (kind: JobDoc['kind'], id: string, extra: { revisionId?: string } = {}) =>
          insert(
            newJob({
              id,
              kind,
              event: stored,
              projectId: article.projectId,
              articleId,
              nowMs: clock.nowMs(),
              ...extra,
            }),
          );
        switch (event.type) {
          case 'ArticlePublishRequested':
            return job('publish', `publish:${stored.id}`);
          case 'ArticleRetried':
            return event.data.step === 'publishing' ? job('publish', `publish:${stored.id}`) : [];
          case 'ArticleRevised':
            return job('revision', `revision:${event.data.revisionId}`, {
              revisionId: event.data.revisionId,
            });
          // Answered on an open pull request, so whoever asked there learns why nothing changed.
          case 'ArticleRevisionFailed':
            return article.status === 'pr_open'
              ? job('revision', `revision:${event.data.revisionId}`, {
                  revisionId: event.data.revisionId,
                })
              : [];
          case 'ArticleMerged':
            return hookJob(stored, article.projectId, articleId);
          case 'ArticleBuildObserved':
            if (article.status !== 'pr_open') return [];
            // A build that rejects Inkstream's file may get a corrected file (docs/publishing.md).
            return rejectsInkstreamFile(event.data.build)
              ? [...job('build', `build:${stored.id}`), ...job('correct', `correct:${stored.id}`)]
              : job('build', `build:${stored.id}`);
          case 'ArticleBuildCorrectionApplyRequested':
            return article.status === 'pr_open'
              ? job('applyCorrection', `apply-correction:${stored.id}`)
              : [];
          case 'ArticleDrafted':
            if (event.data.purpose === 'refresh' && isLatestRefreshStep(stored, events)) {
              // Refreshes always go through a pull request: the published page changes only once someone merges.
              await platform.commands.execute(
                articleStream,
                articleId,
                { type: 'StartRefreshPublish', mode: 'pr', at: clock.now() },
                {
                  accountId: stored.metadata.accountId,
                  actor: { kind: 'system', worker: PUBLISHING_FEEDER },
                  correlationId: stored.metadata.correlationId,
                  requestId: stored.metadata.requestId,
                  causationId: stored.id,
                  commandId: `${PUBLISHING_FEEDER}:${stored.id}:refresh-publish`,
                },
              );
            }
            return [];
          default:
            return [];
        }
      },
    },
    platform.readStore,
  );

  return {
    ...inner,
    async handleBatch(events) {
      try {
        await inner.handleBatch(events);
      } finally {
        signal.notify(); // after the commits: the worker finds the jobs it is woken for
      }
    },
  };
}

import type { Logger } from 'pino';
import type { ProjectDoc } from '../../../projections/projects.ts';
import { SealedSecretError } from '../../core/secretBox.ts';
import { loadStream } from '../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../eventstore/port.ts';
import {
  isSearchAnalyticsError,
  needsNewCredentials,
} from '../../integrations/searchAnalytics/port.ts';
import { withRetries } from '../../integrations/searchAnalytics/retry.ts';
import { reactionContext } from '../../consumers/commandContext.ts';
import type { PartitionedHandler } from '../../consumers/partitioned.ts';
import type { Platform } from '../../platform.ts';
import { whatToFix } from './accessErrors.ts';
import { credentialsOf, searchConsoleFor } from './clients.ts';
import type { SearchAnalytics } from '../../domain/searchAnalytics/searchAnalytics.ts';
import {
  searchAnalyticsStream,
  type SearchAnalyticsCommand,
} from '../../domain/searchAnalytics/decide.ts';
import { SEARCH_SYNC_WORKER, syncArticles } from './sync.ts';

type Outcome = Extract<
  SearchAnalyticsCommand,
  { type: 'CompleteSearchSync' | 'FailSearchSync' | 'MarkSearchConnectionBroken' }
>;

const isCurrent = (state: SearchAnalytics, syncId: string): boolean =>
  state.sync?.syncId === syncId &&
  state.sync.status === 'running' &&
  state.connection?.status === 'ok' &&
  state.connection.connectionId === state.sync.connectionId;

/**
 * Runs each requested sync (on connect, POST …/sync, the daily scheduler). Google's refusal of
 * the credentials or the property breaks the connection with what to fix, and nothing is asked of
 * Google again until new credentials are saved; quota and 5xx answers are retried with backoff,
 * then the run fails and the connection stays ok. After a crash the run is redone: figures already
 * recorded for this run are not recorded twice.
 */
export function searchSyncProcess(
  platform: Platform,
  options: { stopping: { readonly signal: AbortSignal }; logger: Logger; concurrency?: number },
): PartitionedHandler {
  const delaysMs = platform.config.INKSTREAM_SEARCH_RETRY_DELAYS_MS;
  const log = options.logger;

  function failureOf(
    error: unknown,
    state: SearchAnalytics,
    projectId: string,
    syncId: string,
  ): Outcome {
    const at = platform.clock.now();
    const connection = state.connection!;
    if (isSearchAnalyticsError(error) && needsNewCredentials(error)) {
      const { message } = whatToFix(error, {
        projectId,
        property: connection.property,
        credentials: connection.credentials,
      });
      return { type: 'MarkSearchConnectionBroken', syncId, reason: message, at };
    }
    if (error instanceof SealedSecretError) {
      // Only saving the credentials again fixes it, as with a refused grant.
      return {
        type: 'MarkSearchConnectionBroken',
        syncId,
        reason: `${error.message.replace(/ Save the secret again\.$/, '')} Save the credentials again with PUT /api/v1/projects/${projectId}/integrations/search-analytics.`,
        at,
      };
    }
    const reason = isSearchAnalyticsError(error)
      ? `Search Console could not be asked (${error.detail}), also after ${delaysMs.length} retries. The next daily sync tries again, or POST /api/v1/projects/${projectId}/integrations/search-analytics/sync.`
      : `The sync stopped on an unexpected error (${error instanceof Error ? error.message : String(error)}); the next daily sync tries again.`;
    return { type: 'FailSearchSync', syncId, reason, at };
  }

  async function run(
    event: StoredEvent,
    state: SearchAnalytics,
    projectId: string,
    syncId: string,
  ): Promise<Outcome | null> {
    const connection = state.connection!;
    const { signal } = options.stopping;
    const project = await platform.readStore.get<ProjectDoc>('projects', projectId);
    if (!project)
      return {
        type: 'FailSearchSync',
        syncId,
        reason: `Project ${projectId} was not found.`,
        at: platform.clock.now(),
      };
    try {
      const outcome = await syncArticles({
        platform,
        connection,
        project,
        syncId,
        syncedAt: platform.clock.now(),
        cause: event,
        port: searchConsoleFor(
          platform,
          credentialsOf(platform, connection, { accountId: state.accountId!, projectId }),
        ),
        call: (request) =>
          withRetries(request, {
            delaysMs,
            signal,
            onRetry: (error, attempt, waitMs) =>
              log.info(
                { projectId, syncId, attempt, waitMs, err: error },
                'Search Console answer to retry',
              ),
          }),
        stillCurrent: async () =>
          isCurrent(
            (await loadStream(platform.eventStore, searchAnalyticsStream, projectId)).state,
            syncId,
          ),
      });
      return (
        outcome && { type: 'CompleteSearchSync', syncId, ...outcome, at: platform.clock.now() }
      );
    } catch (error) {
      if (signal.aborted) throw error; // the work is stopping: the run is redone when it starts again
      log.warn({ err: error, projectId, syncId }, 'search analytics sync did not complete');
      return failureOf(error, state, projectId, syncId);
    }
  }

  return {
    name: SEARCH_SYNC_WORKER,
    categories: ['searchAnalytics'],
    types: ['SearchAnalyticsSyncRequested'],
    concurrency: options.concurrency ?? 2,
    async handle(event) {
      if (options.stopping.signal.aborted) throw new Error('search analytics syncs are stopped');
      const { projectId, syncId } = event.data as { projectId: string; syncId: string };
      const { state } = await loadStream(platform.eventStore, searchAnalyticsStream, projectId);
      if (!isCurrent(state, syncId)) return;
      const outcome = await run(event, state, projectId, syncId);
      if (outcome)
        await platform.commands.execute(
          searchAnalyticsStream,
          projectId,
          outcome,
          reactionContext(event, SEARCH_SYNC_WORKER, 'outcome'),
        );
    },
  };
}

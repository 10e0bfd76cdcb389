import { eventHandlerConsumer } from '../../../consumers/define.ts';
import type { ConsumerDefinition } from '../../../consumers/runner.ts';
import type { ContentProfile } from '../../../domain/integrations/contentProfile.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import type { GitHubConnection } from '../../../domain/integrations/integrations.ts';
import { type CommandContext, loadStream } from '../../../eventstore/handleCommand.ts';
import { isGitHubError } from '../../../integrations/github/errors.ts';
import type { Platform } from '../../../platform.ts';
import { githubClients } from '../github/githubClients.ts';
import { learnAt, type LearningReads } from './learnContentProfile.ts';

export const PROFILE_LEARNER = 'publishing.profileLearner';

/**
 * Learns the profile again when the base branch's tree is not the one it was learned from, and
 * records it (RecordContentProfile records nothing when tree and answer are unchanged). One branch
 * read when nothing changed. Returns the profile as it now stands. GitHub failures are thrown to
 * the caller, whose retries apply (the publish job's, or the learner consumer's note).
 */
export async function refreshContentProfile(
  platform: Platform,
  projectId: string,
  repo: LearningReads,
  context: (tree: string) => CommandContext,
): Promise<ContentProfile | null> {
  const { state } = await loadStream(platform.eventStore, integrationsStream, projectId);
  const connection = state.github;
  if (!connection) return null;
  const tip = await repo.getBranchTip(connection.baseBranch);
  if (!tip || connection.contentProfile.learnedFrom?.tree === tip.tree)
    return connection.contentProfile;
  const learned = await learnAt(repo, tip);
  const result = await platform.commands.execute(
    integrationsStream,
    projectId,
    { type: 'RecordContentProfile', ...learned, at: platform.clock.now() },
    context(tip.tree),
  );
  return result.state.github?.contentProfile ?? connection.contentProfile;
}

const repositoryOf = (
  platform: Platform,
  connection: GitHubConnection,
  accountId: string,
  projectId: string,
) =>
  githubClients(platform)
    .forConnection(connection, { accountId, projectId })
    .repository({ owner: connection.owner, repo: connection.repo });

/**
 * On `GitHubConnected`, learns the repository's content profile. The stream is read first: a
 * profile already learned from the branch's current tree (this consumer ran before a kill -9, or
 * a later connection learned it) is not learned or recorded again. A GitHub failure is logged and
 * skipped: the next publish learns before it commits (refreshContentProfile).
 */
export function profileLearner(platform: Platform): ConsumerDefinition {
  return eventHandlerConsumer(
    {
      name: PROFILE_LEARNER,
      categories: ['integrations'],
      types: ['GitHubConnected'],
      async handle(event) {
        const { projectId, accountId } = event.data as { projectId: string; accountId: string };
        const { state } = await loadStream(platform.eventStore, integrationsStream, projectId);
        if (!state.github) return;
        try {
          await refreshContentProfile(
            platform,
            projectId,
            repositoryOf(platform, state.github, state.accountId ?? accountId, projectId),
            (tree) => ({
              accountId: event.metadata.accountId,
              actor: { kind: 'system', worker: PROFILE_LEARNER },
              correlationId: event.metadata.correlationId,
              requestId: event.metadata.requestId,
              causationId: event.id,
              commandId: `${PROFILE_LEARNER}:${event.id}:${tree}`,
            }),
          );
        } catch (error) {
          if (!isGitHubError(error)) throw error;
          platform.logger.warn(
            { err: error, projectId },
            'could not learn the content profile; the next publish learns it',
          );
        }
      },
    },
    platform.readStore,
  );
}

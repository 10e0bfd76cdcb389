import { AppError } from '../../core/errors.ts';
import type { StreamType } from '../../eventstore/handleCommand.ts';
import {
  evolveIntegrations,
  initialIntegrations,
  INTEGRATIONS_CATEGORY,
  type ChangeableGitHubSettings,
  type CredentialSummary,
  type GitHubSettings,
  type IntegrationEvent,
  type Integrations,
} from './integrations.ts';
import {
  applyOverridesPatch,
  overrideConflicts,
  type LearnedProfile,
  type ProfileOverrides,
  type ProfileOverridesPatch,
} from './contentProfile.ts';

export type IntegrationCommand =
  | {
      type: 'ConnectGitHub';
      projectId: string;
      accountId: string;
      settings: GitHubSettings;
      credentials: CredentialSummary;
      sealedCredentials: string;
      /** A newly issued secret, or null to keep the current one. */
      sealedWebhookSecret: string | null;
      at: string;
    }
  | { type: 'DisconnectGitHub'; at: string }
  | {
      type: 'SetPostPublishHook';
      projectId: string;
      accountId: string;
      url: string;
      sealedSecret: string | null;
      at: string;
    }
  | { type: 'RemovePostPublishHook'; at: string }
  | {
      type: 'RecordContentProfile';
      learnedFrom: { commit: string; tree: string };
      learned: LearnedProfile | null;
      failureReason: string | null;
      at: string;
    }
  | { type: 'AcceptContentProfile'; at: string }
  | { type: 'SetContentProfileOverrides'; overrides: ProfileOverrides; at: string }
  | {
      /** A person's correction of the connection: settings and profile overrides, together or not at all. */
      type: 'ChangeGitHubSettings';
      settings: Partial<ChangeableGitHubSettings>;
      overrides: ProfileOverridesPatch | null;
      at: string;
    };

const changedUnderneath = (what: string) =>
  new AppError(
    'conflict',
    `The ${what} was removed by another request at the same time; send the request again.`,
  );

export function decideIntegrations(
  command: IntegrationCommand,
  state: Integrations,
): IntegrationEvent[] {
  switch (command.type) {
    case 'ConnectGitHub': {
      const current = state.github;
      if (command.sealedWebhookSecret === null && !current)
        throw changedUnderneath('GitHub connection');
      const { projectId, accountId, settings, credentials, sealedCredentials, at } = command;
      return [
        {
          type: 'GitHubConnected',
          data: {
            projectId,
            accountId,
            ...settings,
            credentials,
            sealedCredentials,
            sealedWebhookSecret: command.sealedWebhookSecret ?? current!.sealedWebhookSecret,
            webhookSecretIssuedAt:
              command.sealedWebhookSecret === null ? current!.webhookSecretIssuedAt : at,
            at,
            // Connections made from now on learn the repository's content profile.
            learnsProfile: true,
          },
        },
      ];
    }
    case 'DisconnectGitHub':
      if (!state.github || !state.projectId)
        throw new AppError('not_found', 'This project has no GitHub connection.');
      return [{ type: 'GitHubDisconnected', data: { projectId: state.projectId, at: command.at } }];
    case 'SetPostPublishHook': {
      const current = state.postPublishHook;
      if (command.sealedSecret === null && !current) throw changedUnderneath('post-publish hook');
      const { projectId, accountId, url, at } = command;
      return [
        {
          type: 'PostPublishHookSet',
          data: {
            projectId,
            accountId,
            url,
            sealedSecret: command.sealedSecret ?? current!.sealedSecret,
            secretIssuedAt: command.sealedSecret === null ? current!.secretIssuedAt : at,
            at,
          },
        },
      ];
    }
    case 'RemovePostPublishHook':
      if (!state.postPublishHook || !state.projectId)
        throw new AppError('not_found', 'This project has no post-publish hook.');
      return [
        { type: 'PostPublishHookRemoved', data: { projectId: state.projectId, at: command.at } },
      ];
    case 'RecordContentProfile': {
      const { github, projectId } = requireGitHub(state);
      const { learnedFrom, learned, failureReason, at } = command;
      // The same tree learned again, with the same answer, records nothing.
      const current = github.contentProfile;
      if (
        current.learnedFrom?.tree === learnedFrom.tree &&
        JSON.stringify(current.learned) === JSON.stringify(learned) &&
        current.failureReason === failureReason
      )
        return [];
      return [
        {
          type: 'ContentProfileLearned',
          data: { projectId, learnedFrom, learned, failureReason, at },
        },
      ];
    }
    case 'AcceptContentProfile': {
      const { github, projectId } = requireGitHub(state);
      if (!github.contentProfile.learned)
        throw new AppError(
          'invalid_state',
          'Nothing has been learned from the repository yet: wait for the profile, then accept it.',
        );
      if (github.contentProfile.state === 'learned') return [];
      return [{ type: 'ContentProfileAccepted', data: { projectId, at: command.at } }];
    }
    case 'SetContentProfileOverrides': {
      const { github, projectId } = requireGitHub(state);
      if (JSON.stringify(github.contentProfile.overrides) === JSON.stringify(command.overrides))
        return [];
      return [
        {
          type: 'ContentProfileOverridesSet',
          data: { projectId, overrides: command.overrides, at: command.at },
        },
      ];
    }
    case 'ChangeGitHubSettings':
      return changeSettings(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

function changeSettings(
  command: Extract<IntegrationCommand, { type: 'ChangeGitHubSettings' }>,
  state: Integrations,
): IntegrationEvent[] {
  const { github, projectId } = requireGitHub(state);
  const { at } = command;
  const changed = Object.fromEntries(
    Object.entries(command.settings).filter(
      ([key, value]) => value !== undefined && github[key as keyof typeof github] !== value,
    ),
  ) as Partial<ChangeableGitHubSettings>;
  const events: IntegrationEvent[] = [];
  if (Object.keys(changed).length > 0)
    events.push({ type: 'GitHubSettingsChanged', data: { ...changed, projectId, at } });
  if (command.overrides) {
    const current = github.contentProfile;
    const overrides = applyOverridesPatch(current.overrides, command.overrides);
    const conflicts = overrideConflicts({ ...current, overrides });
    if (conflicts.length > 0)
      throw new AppError('validation_failed', conflicts.map((c) => c.message).join(' '), {
        details: conflicts.map((c) => ({
          path: `body.overrides.${c.override}`,
          message: c.message,
        })),
      });
    if (JSON.stringify(current.overrides) !== JSON.stringify(overrides))
      events.push({ type: 'ContentProfileOverridesSet', data: { projectId, overrides, at } });
  }
  return events;
}

function requireGitHub(state: Integrations) {
  if (!state.github || !state.projectId)
    throw new AppError('not_found', 'This project has no GitHub connection.');
  return { github: state.github, projectId: state.projectId };
}

export const integrationsStream: StreamType<Integrations, IntegrationEvent, IntegrationCommand> = {
  category: INTEGRATIONS_CATEGORY,
  initial: initialIntegrations,
  evolve: evolveIntegrations,
  decide: decideIntegrations,
};

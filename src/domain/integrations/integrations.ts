import type { EventNames } from '../../eventstore/handleCommand.ts';
import type { ContentProfile, LearnedProfile, ProfileOverrides } from './contentProfile.ts';

/**
 * A project's integrations (the integrations page) as an event stream of its own, keyed by the
 * project id: where articles are published on GitHub and which URL is called after each
 * publication. Credentials and signing secrets are only ever in the log sealed (AES-256-GCM with
 * the instance key): the log is append-only and forever.
 */
export type PublishMode = 'pr' | 'direct';

/** The least role on the repository whose PR comments become revisions. */
export const COMMENT_PERMISSIONS = ['write', 'maintain', 'admin'] as const;
export type CommentPermission = (typeof COMMENT_PERMISSIONS)[number];
/** Connections saved before the setting existed ask for write access. */
export const DEFAULT_COMMENT_PERMISSION: CommentPermission = 'write';

/** What the API may show of a credential: its kind and, for an App, its public ids. */
export type CredentialSummary =
  | { type: 'token' }
  | { type: 'app'; appId: string; installationId: number };

export type GitHubSettings = {
  owner: string;
  repo: string;
  baseBranch: string;
  contentDirectory: string;
  coverDirectory: string;
  publishMode: PublishMode;
  commentPermission: CommentPermission;
};

/** What PATCH …/integrations/github may change without the credential being given again. */
export type ChangeableGitHubSettings = Pick<
  GitHubSettings,
  'contentDirectory' | 'coverDirectory' | 'commentPermission'
>;

export type IntegrationEvent =
  | {
      type: 'GitHubConnected';
      data: GitHubSettings & {
        projectId: string;
        accountId: string;
        credentials: CredentialSummary;
        sealedCredentials: string;
        /** The secret GitHub signs its webhooks with; kept from the previous connection unless rotated. */
        sealedWebhookSecret: string;
        webhookSecretIssuedAt: string;
        /**
         * Connections made since repositories are learned say so; one without it (made before)
         * keeps publishing in the fixed legacy shape until a person accepts its learned profile.
         */
        learnsProfile?: true;
        at: string;
      };
    }
  | {
      type: 'ContentProfileLearned';
      data: {
        projectId: string;
        learnedFrom: { commit: string; tree: string };
        /** null when learning failed: `failureReason` says why. */
        learned: LearnedProfile | null;
        failureReason: string | null;
        at: string;
      };
    }
  | { type: 'ContentProfileAccepted'; data: { projectId: string; at: string } }
  | {
      type: 'ContentProfileOverridesSet';
      data: { projectId: string; overrides: ProfileOverrides; at: string };
    }
  | { type: 'GitHubDisconnected'; data: { projectId: string; at: string } }
  | {
      /** Settings changed without connecting again (the credential untouched): only those that changed. */
      type: 'GitHubSettingsChanged';
      data: Partial<ChangeableGitHubSettings> & { projectId: string; at: string };
    }
  | {
      type: 'PostPublishHookSet';
      data: {
        projectId: string;
        accountId: string;
        url: string;
        sealedSecret: string;
        secretIssuedAt: string;
        at: string;
      };
    }
  | { type: 'PostPublishHookRemoved'; data: { projectId: string; at: string } };

/** Every type of IntegrationEvent, as data: a read model skips (and logs) a type it does not know. */
export const INTEGRATION_EVENTS: EventNames<IntegrationEvent> = {
  GitHubConnected: true,
  ContentProfileLearned: true,
  ContentProfileAccepted: true,
  ContentProfileOverridesSet: true,
  GitHubSettingsChanged: true,
  GitHubDisconnected: true,
  PostPublishHookSet: true,
  PostPublishHookRemoved: true,
};

export type GitHubConnection = GitHubSettings & {
  credentials: CredentialSummary;
  sealedCredentials: string;
  sealedWebhookSecret: string;
  webhookSecretIssuedAt: string;
  connectedAt: string;
  contentProfile: ContentProfile;
};

export type PostPublishHook = {
  url: string;
  sealedSecret: string;
  secretIssuedAt: string;
  setAt: string;
};

export type Integrations = {
  projectId: string | null;
  accountId: string | null;
  github: GitHubConnection | null;
  postPublishHook: PostPublishHook | null;
};

export const INTEGRATIONS_CATEGORY = 'integrations';

export const initialIntegrations = (): Integrations => ({
  projectId: null,
  accountId: null,
  github: null,
  postPublishHook: null,
});

export function evolveIntegrations(state: Integrations, event: IntegrationEvent): Integrations {
  switch (event.type) {
    case 'GitHubConnected': {
      const { projectId, accountId, at, learnsProfile, ...connection } = event.data;
      const commentPermission = connection.commentPermission ?? DEFAULT_COMMENT_PERMISSION;
      const previous = state.github?.contentProfile;
      const sameRepository =
        state.github?.owner === connection.owner && state.github?.repo === connection.repo;
      const contentProfile: ContentProfile =
        previous && sameRepository
          ? previous
          : {
              state: learnsProfile ? 'learning' : 'legacy',
              learnedFrom: null,
              learned: null,
              failureReason: null,
              overrides: {},
            };
      return {
        ...state,
        projectId,
        accountId,
        github: { ...connection, commentPermission, connectedAt: at, contentProfile },
      };
    }
    case 'ContentProfileLearned': {
      if (!state.github) return state;
      const { learnedFrom, learned, failureReason } = event.data;
      const current = state.github.contentProfile;
      // A legacy connection keeps publishing as before: what was learned waits for acceptance.
      const next: ContentProfile['state'] =
        current.state === 'legacy' ? 'legacy' : learned ? 'learned' : 'failed';
      return {
        ...state,
        github: {
          ...state.github,
          contentProfile: { ...current, state: next, learnedFrom, learned, failureReason },
        },
      };
    }
    case 'ContentProfileAccepted': {
      if (!state.github?.contentProfile.learned) return state;
      return {
        ...state,
        github: {
          ...state.github,
          contentProfile: { ...state.github.contentProfile, state: 'learned' },
        },
      };
    }
    case 'ContentProfileOverridesSet': {
      if (!state.github) return state;
      const { overrides } = event.data;
      return {
        ...state,
        github: { ...state.github, contentProfile: { ...state.github.contentProfile, overrides } },
      };
    }
    case 'GitHubDisconnected':
      return { ...state, github: null };
    case 'GitHubSettingsChanged': {
      if (!state.github) return state;
      const { projectId: _projectId, at: _at, ...changed } = event.data;
      return { ...state, github: { ...state.github, ...changed } };
    }
    case 'PostPublishHookSet': {
      const { projectId, accountId, url, sealedSecret, secretIssuedAt, at } = event.data;
      return {
        ...state,
        projectId,
        accountId,
        postPublishHook: { url, sealedSecret, secretIssuedAt, setAt: at },
      };
    }
    case 'PostPublishHookRemoved':
      return { ...state, postPublishHook: null };
    default:
      return state;
  }
}

export const repositoryKey = (owner: string, repo: string): string =>
  `${owner}/${repo}`.toLowerCase();

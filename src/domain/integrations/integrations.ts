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
        at: string;
      };
    }
  | { type: 'GitHubDisconnected'; data: { projectId: string; at: string } }
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

export type GitHubConnection = GitHubSettings & {
  credentials: CredentialSummary;
  sealedCredentials: string;
  sealedWebhookSecret: string;
  webhookSecretIssuedAt: string;
  connectedAt: string;
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
      const { projectId, accountId, at, ...connection } = event.data;
      const commentPermission = connection.commentPermission ?? DEFAULT_COMMENT_PERMISSION;
      return {
        ...state,
        projectId,
        accountId,
        github: { ...connection, commentPermission, connectedAt: at },
      };
    }
    case 'GitHubDisconnected':
      return { ...state, github: null };
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

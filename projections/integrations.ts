import type { StoredEvent } from '../src/eventstore/port.ts';
import {
  INTEGRATION_EVENTS,
  repositoryKey,
  type CredentialSummary,
  type IntegrationEvent,
  type PublishMode,
} from '../src/domain/integrations/integrations.ts';
import { defineProjection } from '../src/readstore/projection.ts';
import {
  SEARCH_ANALYTICS_EVENTS,
  type CredentialSummary as SearchCredentials,
  type SearchAnalyticsEvent,
  type SyncRun,
} from '../src/domain/searchAnalytics/searchAnalytics.ts';

/**
 * A project's integrations as the integrations page shows them: no credential, no secret.
 * `repository` (owner/repo, lower case) finds the projects a GitHub webhook may belong to.
 */
export type IntegrationsDoc = {
  id: string;
  accountId: string;
  projectId: string;
  repository: string | null;
  github: {
    owner: string;
    repo: string;
    baseBranch: string;
    contentDirectory: string;
    coverDirectory: string;
    publishMode: PublishMode;
    credentials: CredentialSummary;
    webhookSecretIssuedAt: string;
    connectedAt: string;
  } | null;
  postPublishHook: { url: string; secretIssuedAt: string; setAt: string } | null;
  updatedAt: string;
};

export const integrations = defineProjection<IntegrationsDoc, IntegrationEvent>({
  name: 'integrations',
  collection: 'integrations',
  indexes: ['accountId', 'repository'],
  categories: ['integrations'],
  events: INTEGRATION_EVENTS,
  documentId: (event) => String(event.data.projectId),
  evolve(doc, event) {
    const base: IntegrationsDoc = doc ?? {
      id: event.data.projectId,
      accountId: event.metadata.accountId,
      projectId: event.data.projectId,
      repository: null,
      github: null,
      postPublishHook: null,
      updatedAt: event.data.at,
    };
    const updatedAt = event.data.at;
    switch (event.type) {
      case 'GitHubConnected': {
        const {
          owner,
          repo,
          baseBranch,
          contentDirectory,
          coverDirectory,
          publishMode,
          credentials,
          webhookSecretIssuedAt,
          at,
        } = event.data;
        return {
          ...base,
          repository: repositoryKey(owner, repo),
          updatedAt,
          github: {
            owner,
            repo,
            baseBranch,
            contentDirectory,
            coverDirectory,
            publishMode,
            credentials,
            webhookSecretIssuedAt,
            connectedAt: at,
          },
        };
      }
      case 'GitHubDisconnected':
        return { ...base, repository: null, github: null, updatedAt };
      case 'GitHubSettingsChanged': {
        if (!base.github) return doc;
        const { contentDirectory, coverDirectory } = event.data;
        return {
          ...base,
          updatedAt,
          github: {
            ...base.github,
            ...(contentDirectory === undefined ? {} : { contentDirectory }),
            ...(coverDirectory === undefined ? {} : { coverDirectory }),
          },
        };
      }
      case 'PostPublishHookSet': {
        const { url, secretIssuedAt, at } = event.data;
        return { ...base, postPublishHook: { url, secretIssuedAt, setAt: at }, updatedAt };
      }
      case 'PostPublishHookRemoved':
        return { ...base, postPublishHook: null, updatedAt };
      default:
        return doc;
    }
  },
});

/** What a project read shows of its integrations: which are set and whether they work, never a credential or secret. */
export type IntegrationsSummary = {
  github: {
    repository: string;
    publishMode: PublishMode;
    credentials: CredentialSummary['type'];
  } | null;
  postPublishHook: { url: string } | null;
  searchAnalytics: {
    provider: string;
    property: string;
    status: 'ok' | 'broken';
    credentials: SearchCredentials['type'];
    lastSync: {
      id: string;
      status: SyncRun['status'];
      requestedAt: string;
      finishedAt: string | null;
    } | null;
  } | null;
};

export const NO_INTEGRATIONS: IntegrationsSummary = {
  github: null,
  postPublishHook: null,
  searchAnalytics: null,
};

/** The summary after an integrations or search-analytics event; null for any other event. */
export function summarizeIntegrations(
  summary: IntegrationsSummary,
  event: { type: string },
): IntegrationsSummary | null {
  // A project summarized before search analytics was has no such field.
  const current = { ...NO_INTEGRATIONS, ...summary };
  if (isIntegrationEvent(event)) return summarizeGitHub(current, event);
  if (isSearchAnalyticsEvent(event)) return summarizeSearchAnalytics(current, event);
  return null;
}

const isIntegrationEvent = (event: { type: string }): event is IntegrationEvent =>
  Object.hasOwn(INTEGRATION_EVENTS, event.type);
const isSearchAnalyticsEvent = (event: { type: string }): event is SearchAnalyticsEvent =>
  Object.hasOwn(SEARCH_ANALYTICS_EVENTS, event.type);

function summarizeGitHub(
  current: IntegrationsSummary,
  event: IntegrationEvent,
): IntegrationsSummary | null {
  switch (event.type) {
    case 'GitHubConnected': {
      const { owner, repo, publishMode, credentials } = event.data;
      return {
        ...current,
        github: { repository: `${owner}/${repo}`, publishMode, credentials: credentials.type },
      };
    }
    case 'GitHubDisconnected':
      return { ...current, github: null };
    case 'PostPublishHookSet':
      return { ...current, postPublishHook: { url: event.data.url } };
    case 'PostPublishHookRemoved':
      return { ...current, postPublishHook: null };
    default:
      return null;
  }
}

function summarizeSearchAnalytics(
  current: IntegrationsSummary,
  event: SearchAnalyticsEvent,
): IntegrationsSummary | null {
  const connection = current.searchAnalytics;
  if (event.type === 'SearchAnalyticsConnected') {
    const { provider, property, credentials } = event.data;
    return {
      ...current,
      searchAnalytics: {
        provider,
        property,
        status: 'ok',
        credentials: credentials.type,
        lastSync: connection?.lastSync ?? null,
      },
    };
  }
  if (!connection) return null;
  const { lastSync } = connection;
  const finish = (
    syncId: string,
    status: SyncRun['status'],
    at: string,
    connectionStatus = connection.status,
  ): IntegrationsSummary | null =>
    lastSync?.id === syncId
      ? {
          ...current,
          searchAnalytics: {
            ...connection,
            status: connectionStatus,
            lastSync: { ...lastSync, status, finishedAt: at },
          },
        }
      : null;
  switch (event.type) {
    case 'SearchAnalyticsDisconnected':
      return { ...current, searchAnalytics: null };
    case 'SearchAnalyticsSyncRequested': {
      const { syncId, at } = event.data;
      return {
        ...current,
        searchAnalytics: {
          ...connection,
          lastSync: { id: syncId, status: 'running', requestedAt: at, finishedAt: null },
        },
      };
    }
    case 'SearchAnalyticsSyncCompleted':
      return finish(event.data.syncId, 'completed', event.data.at);
    case 'SearchAnalyticsSyncFailed':
      return finish(event.data.syncId, 'failed', event.data.at);
    case 'SearchAnalyticsConnectionBroken':
      return finish(event.data.syncId, 'broken', event.data.at, 'broken');
    default:
      return null;
  }
}

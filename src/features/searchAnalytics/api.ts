import { randomUUID } from 'node:crypto';
import { ownedProject } from '../projects/owned.ts';
import { z } from 'zod';
import type { ProjectDoc } from '../../../projections/projects.ts';
import {
  SEARCH_ANALYTICS_COLLECTION,
  searchAnalytics as searchAnalyticsProjection,
  type SearchAnalyticsDoc,
  type SyncSummary,
} from '../../../projections/searchAnalytics.ts';
import { requireFeature } from '../accounts/planLimits.ts';
import { AppError } from '../../core/errors.ts';
import { route, type RouteInput } from '../../http/route.ts';
import { applyAppended, commandContext } from '../../http/resources.ts';
import { idOf } from '../../http/schemas.ts';
import type { Platform } from '../../platform.ts';
import { articleUrl, defaultUrlPattern, EXAMPLE_SLUG, propertyCovers } from './articleUrl.ts';
import { searchConsoleFor, summaryOf, validateAccess } from './clients.ts';
import {
  searchAnalyticsStream,
  type SearchAnalyticsCommand,
} from '../../domain/searchAnalytics/decide.ts';
import { ConnectSearchAnalyticsBody } from './input.ts';
import { SearchAnalyticsIntegration, SyncRunView } from './schemas.ts';
import { SYNC_INTERVAL_MS } from './scheduler.ts';

const PATH = '/projects/:id/integrations/search-analytics';
const Response = z.object({ searchAnalytics: SearchAnalyticsIntegration });

type Input = RouteInput<{ id: string }, unknown, unknown>;

const notConnected = (projectId: string) =>
  new AppError(
    'not_found',
    `Project ${projectId} has no search-analytics connection; connect one with PUT /api/v1/projects/${projectId}/integrations/search-analytics.`,
  );

function present(
  platform: Platform,
  doc: SearchAnalyticsDoc,
  project: ProjectDoc,
): z.infer<typeof SearchAnalyticsIntegration> {
  const {
    property,
    urlPattern,
    credentials,
    status,
    reason,
    connectedAt,
    lastSync,
    lastCompletedSync,
  } = doc;
  const due = lastSync
    ? Date.parse(lastSync.requestedAt) + SYNC_INTERVAL_MS
    : platform.clock.nowMs();
  return {
    provider: 'google-search-console',
    property,
    urlPattern,
    exampleUrl: articleUrl(urlPattern, project, EXAMPLE_SLUG),
    backfill: doc.backfill ?? false,
    credentials,
    status,
    reason,
    connectedAt,
    lastSync,
    lastSuccessfulSyncAt: lastCompletedSync?.finishedAt ?? null,
    nextSyncAt: status === 'ok' ? new Date(due).toISOString() : null,
  };
}

/** Runs a command on the project's connection; "no connection" is answered with how to make one. */
async function onConnection(input: Input, projectId: string, command: SearchAnalyticsCommand) {
  try {
    return await input.platform.commands.execute(
      searchAnalyticsStream,
      projectId,
      command,
      commandContext(input),
    );
  } catch (error) {
    throw error instanceof AppError && error.code === 'not_found' ? notConnected(projectId) : error;
  }
}

async function currentDoc(
  platform: Platform,
  projectId: string,
): Promise<SearchAnalyticsDoc | null> {
  return platform.readStore.get<SearchAnalyticsDoc>(SEARCH_ANALYTICS_COLLECTION, projectId);
}

/**
 * Article URLs must fall under the property, or every figure would be zero: said on save, not after
 * a month of zeros. On the pattern's field when one was given, else on the property's (the default
 * pattern is the project's site, which the property should cover).
 */
function requireCovered(
  property: string,
  urlPattern: string | undefined,
  project: ProjectDoc,
): void {
  const field = urlPattern === undefined ? 'body.property' : 'body.urlPattern';
  urlPattern ??= defaultUrlPattern(project);
  const example = articleUrl(urlPattern, project, EXAMPLE_SLUG);
  if (
    URL.canParse(example) &&
    /^https?:$/.test(new URL(example).protocol) &&
    propertyCovers(property, example)
  )
    return;
  const message =
    `Article URLs would look like ${example}, which Search Console does not report under ${property}. ` +
    'Set urlPattern to the address articles are published at (e.g. https://www.example.com/blog/{slug}), or connect the property that covers them.';
  throw new AppError('validation_failed', message, { details: [{ path: field, message }] });
}

export const searchAnalyticsRoutes = [
  route({
    method: 'put',
    path: PATH,
    tag: 'Integrations',
    summary:
      'Connect the project to a Google Search Console property (checked with Google before it is saved); credentials are stored sealed and never returned',
    params: z.object({ id: idOf('prj') }),
    body: ConnectSearchAnalyticsBody,
    responses: { 200: Response },
    errors: [402, 404, 503],
    async handle(input) {
      const { body, auth, platform } = input;
      const project = await ownedProject(input, input.params.id);
      requireFeature(platform, auth, 'search_analytics');
      requireCovered(body.property, body.urlPattern, project);
      const urlPattern = body.urlPattern ?? defaultUrlPattern(project);
      const credentials = summaryOf(body.credentials);
      await validateAccess(searchConsoleFor(platform, body.credentials), {
        projectId: project.id,
        property: body.property,
        credentials,
      });
      const result = await platform.commands.execute(
        searchAnalyticsStream,
        project.id,
        {
          type: 'ConnectSearchAnalytics',
          projectId: project.id,
          accountId: auth.accountId,
          connectionId: randomUUID(),
          syncId: platform.ids.next('run'),
          property: body.property,
          urlPattern,
          backfill: body.backfill,
          credentials,
          sealedCredentials: platform.secrets.seal(JSON.stringify(body.credentials), {
            kind: 'search-credentials',
            accountId: auth.accountId,
            recordId: project.id,
          }),
          at: platform.clock.now(),
        },
        commandContext(input),
      );
      const doc = applyAppended(
        searchAnalyticsProjection,
        await currentDoc(platform, project.id),
        result.events,
      )!;
      return { status: 200, body: { searchAnalytics: present(platform, doc, project) } };
    },
  }),
  route({
    method: 'get',
    path: PATH,
    tag: 'Integrations',
    summary:
      "The project's search-analytics connection: property, kind of credential, status (ok, or broken with the reason) and the last sync",
    params: z.object({ id: idOf('prj') }),
    responses: { 200: Response },
    errors: [404],
    async handle(input) {
      const project = await ownedProject(input, input.params.id);
      const doc = await currentDoc(input.platform, project.id);
      if (!doc) throw notConnected(project.id);
      return { status: 200, body: { searchAnalytics: present(input.platform, doc, project) } };
    },
  }),
  route({
    method: 'delete',
    path: PATH,
    tag: 'Integrations',
    summary:
      'Disconnect search analytics: no more syncs, and articles no longer carry searchMetrics',
    params: z.object({ id: idOf('prj') }),
    responses: { 204: null },
    errors: [404],
    async handle(input) {
      const project = await ownedProject(input, input.params.id);
      await onConnection(input, project.id, {
        type: 'DisconnectSearchAnalytics',
        at: input.platform.clock.now(),
      });
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: `${PATH}/sync`,
    tag: 'Integrations',
    summary:
      "Sync the published articles' Search Console figures now (asynchronous); a sync already running is returned instead of starting another",
    params: z.object({ id: idOf('prj') }),
    responses: { 202: z.object({ sync: SyncRunView }) },
    errors: [402, 404, 409],
    async handle(input) {
      const { platform, auth } = input;
      const project = await ownedProject(input, input.params.id);
      requireFeature(platform, auth, 'search_analytics');
      const result = await onConnection(input, project.id, {
        type: 'RequestSearchSync',
        syncId: platform.ids.next('run'),
        trigger: 'api',
        at: platform.clock.now(),
      });
      // Either this request's run or the one already running.
      const run = result.state.sync!;
      const sync: SyncSummary = {
        id: run.syncId,
        trigger: run.trigger,
        status: run.status,
        requestedAt: run.requestedAt,
        finishedAt: run.finishedAt,
        reason: null,
        period: null,
        previousPeriod: null,
        articles: null,
        withTraffic: null,
      };
      return { status: 202, body: { sync } };
    },
  }),
];

import { verify } from '@octokit/webhooks-methods';
import { z } from 'zod';
import type { IntegrationsDoc } from '../../../../projections/integrations.ts';
import { AppError } from '../../../core/errors.ts';
import { SealedSecretError } from '../../../core/secretBox.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import { route } from '../../../http/route.ts';
import type { Platform } from '../../../platform.ts';
import { ensurePublishingCollections, GITHUB_DELIVERIES } from '../collections.ts';
import { repositoryKey } from '../../../domain/integrations/integrations.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import { actOnGitHubEvent } from './pullRequestEvents.ts';
import { noteWebhookEvent } from '../build/buildEvents.ts';

const Accepted = z
  .object({
    status: z.enum(['accepted', 'ignored', 'duplicate']),
    detail: z.string(),
  })
  .meta({ id: 'GitHubEventOutcome' });

const unauthorized = (message: string) => new AppError('unauthorized', message);

/** The project whose GitHub webhook secret signed these exact bytes, among those connected to the repository. */
async function signingProject(
  platform: Platform,
  repository: string,
  raw: string,
  signature: string,
) {
  await platform.readModels.catchUp(platform.config.INKSTREAM_READ_WAIT_MS);
  const candidates = await platform.readStore.find<IntegrationsDoc>('integrations', {
    filter: { repository },
    limit: 50,
  });
  for (const doc of candidates.items) {
    const { state } = await loadStream(platform.eventStore, integrationsStream, doc.projectId);
    const connection = state.github;
    if (
      !connection ||
      !state.accountId ||
      repositoryKey(connection.owner, connection.repo) !== repository
    )
      continue;
    const secret = openWebhookSecret(
      platform,
      connection.sealedWebhookSecret,
      state.accountId,
      doc.projectId,
    );
    if (secret !== null && (await verify(secret, raw, signature).catch(() => false))) {
      return { projectId: doc.projectId, accountId: doc.accountId, connection };
    }
  }
  return null;
}

/** A secret that does not open (another record's, or under a key this deployment lacks) verifies nothing. */
function openWebhookSecret(
  platform: Platform,
  sealed: string,
  accountId: string,
  projectId: string,
): string | null {
  try {
    return platform.secrets.open(sealed, {
      kind: 'github-webhook-secret',
      accountId,
      recordId: projectId,
    });
  } catch (error) {
    if (!(error instanceof SealedSecretError)) throw error;
    platform.logger.warn(
      { projectId, reason: error.message },
      'the stored GitHub webhook secret does not open: deliveries for this project are refused',
    );
    return null;
  }
}

export const githubEventRoutes = [
  route({
    method: 'post',
    path: '/integrations/github/events',
    tag: 'Integrations',
    auth: 'none',
    rawBody: true,
    summary:
      "Receives the GitHub webhook of a connected repository (signed with the project's webhook secret): merges, closes, PR comments and the site build's check runs, check suites, statuses and deployment statuses",
    responses: { 202: Accepted },
    errors: [400, 401],
    beforeBody(request) {
      if (!request.get('x-hub-signature-256'))
        throw unauthorized(
          "No X-Hub-Signature-256: set the webhook's secret on GitHub to the one PUT /projects/:id/integrations/github returned.",
        );
    },
    async handle({ request, platform }) {
      const signature = request.get('x-hub-signature-256')!;
      const name = request.get('x-github-event') ?? '';
      const deliveryId = request.get('x-github-delivery') ?? '';
      const raw = (request as { rawBody?: Buffer }).rawBody;
      const payload = request.body as Record<string, any> | undefined;
      if (!raw || !payload || typeof payload !== 'object')
        throw new AppError(
          'bad_request',
          'Send the GitHub webhook with content type application/json.',
        );
      const owner = payload.repository?.owner?.login;
      const repoName = payload.repository?.name;
      if (typeof owner !== 'string' || typeof repoName !== 'string') {
        throw new AppError(
          'bad_request',
          'The payload names no repository: add the webhook to the repository itself (Settings → Webhooks).',
        );
      }
      const repository = repositoryKey(owner, repoName);
      const project = await signingProject(platform, repository, raw.toString('utf8'), signature);
      if (!project)
        throw unauthorized(
          `The signature does not match the webhook secret of any project connected to ${owner}/${repoName}.`,
        );

      await ensurePublishingCollections(platform.readStore);
      const seen = deliveryId ? `${project.projectId}:${deliveryId}` : null;
      if (seen && (await platform.readStore.get(GITHUB_DELIVERIES, seen))) {
        return {
          status: 202,
          body: { status: 'duplicate', detail: `delivery ${deliveryId} was handled already` },
        };
      }
      const outcome = await actOnGitHubEvent(
        { platform, ...project, repository, deliveryId: deliveryId || platform.ids.next('req') },
        name,
        payload,
      );
      await noteWebhookEvent(platform.readStore, project.projectId, name, platform.clock.nowMs());
      if (seen) {
        await platform.readStore.commit([
          {
            kind: 'insert_if_absent',
            collection: GITHUB_DELIVERIES,
            id: seen,
            doc: {
              id: seen,
              event: name,
              outcome: outcome.status,
              detail: outcome.detail,
              at: platform.clock.now(),
            },
          },
        ]);
      }
      return { status: 202, body: outcome };
    },
  }),
];

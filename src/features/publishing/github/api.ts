import { randomBytes } from 'node:crypto';
import { ownedProject } from '../../projects/owned.ts';
import { z } from 'zod';
import { requireFeature } from '../../accounts/planLimits.ts';
import { AppError } from '../../../core/errors.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import { route, type RouteInput } from '../../../http/route.ts';
import { commandContext } from '../../../http/resources.ts';
import { idOf } from '../../../http/schemas.ts';
import type { GitHubCredentials } from '../../../integrations/github/credentials.ts';
import type { Platform } from '../../../platform.ts';
import { readCommentRefusals } from './commentRefusals.ts';
import {
  COMMENT_PERMISSIONS,
  type CredentialSummary,
  type GitHubConnection,
} from '../../../domain/integrations/integrations.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import { ConnectGitHubBody, type CredentialsInput } from './connectionInput.ts';
import { ContentProfileView, presentContentProfile } from './contentProfileView.ts';
import { accessRefused } from './githubAccessError.ts';
import { githubClients } from './githubClients.ts';
import { BUILD_EVENTS, webhookEventsOf } from '../build/buildEvents.ts';

/** The GitHub events this service acts on; the webhook on GitHub should send these. */
export const GITHUB_WEBHOOK_EVENTS = [
  'pull_request',
  'issue_comment',
  'pull_request_review_comment',
  ...BUILD_EVENTS,
] as const;
export const GITHUB_EVENTS_PATH = '/api/v1/integrations/github/events';

const CredentialKind = z.union([
  z.object({ type: z.literal('token') }),
  z.object({ type: z.literal('app'), appId: z.string(), installationId: z.number() }),
]);

const GitHubIntegration = z
  .object({
    repository: z.string(),
    baseBranch: z.string(),
    contentDirectory: z.string(),
    coverDirectory: z.string(),
    publishMode: z.enum(['pr', 'direct']),
    credentials: CredentialKind.describe(
      'Which kind of credential is stored; the credential itself is never returned',
    ),
    webhook: z.object({
      url: z.string().describe("Payload URL for the repository's webhook on GitHub"),
      contentType: z.literal('application/json'),
      events: z.array(z.string()),
      secret: z
        .string()
        .optional()
        .describe(
          'Shown only in the response that issued it (first connection or rotateWebhookSecret)',
        ),
      secretIssuedAt: z.string(),
      received: z
        .array(z.object({ name: z.string(), lastReceivedAt: z.string().nullable() }))
        .describe(
          'Each event the webhook should send and when a signed delivery of it last arrived; null: GitHub has not sent it yet (not ticked on GitHub, or nothing happened)',
        ),
    }),
    comments: z.object({
      minimumPermission: z
        .enum(COMMENT_PERMISSIONS)
        .describe('The least role on the repository whose pull request comments become revisions'),
      ignored: z
        .object({
          count: z.number().int(),
          lastAt: z.string().nullable(),
          lastLogin: z.string().nullable(),
          lastReason: z.string().nullable(),
        })
        .describe(
          "Comments ignored because their author lacked that role (or GitHub could not confirm it); counted here, never in the article's history",
        ),
    }),
    connectedAt: z.string(),
    contentProfile: ContentProfileView.describe(
      "What Inkstream learned of the site's repository (where posts go, their name and frontmatter), with a person's overrides applied",
    ),
  })
  .meta({ id: 'GitHubIntegration' });

export const GitHubResponse = z.object({ github: GitHubIntegration });

type Input = RouteInput<{ id: string }, unknown, unknown>;

function eventsUrl(input: Input): string {
  const base =
    input.platform.config.INKSTREAM_PUBLIC_URL ??
    `${input.request.protocol}://${input.request.get('host')}`;
  return `${base.replace(/\/+$/, '')}${GITHUB_EVENTS_PATH}`;
}

export async function present(
  input: Input,
  connection: GitHubConnection,
  secret?: string,
): Promise<z.infer<typeof GitHubIntegration>> {
  const {
    owner,
    repo,
    baseBranch,
    contentDirectory,
    coverDirectory,
    publishMode,
    credentials,
    webhookSecretIssuedAt,
    connectedAt,
  } = connection;
  const ignored = await readCommentRefusals(input.platform.readStore, input.params.id);
  return {
    repository: `${owner}/${repo}`,
    baseBranch,
    contentDirectory,
    coverDirectory,
    publishMode,
    credentials,
    connectedAt,
    comments: { minimumPermission: connection.commentPermission, ignored },
    contentProfile: presentContentProfile(connection.contentProfile),
    webhook: {
      url: eventsUrl(input),
      contentType: 'application/json',
      events: [...GITHUB_WEBHOOK_EVENTS],
      ...(secret ? { secret } : {}),
      secretIssuedAt: webhookSecretIssuedAt,
      received: await webhookEventsOf(input.platform.readStore, input.params.id),
    },
  };
}

function toCredentials(input: CredentialsInput): {
  credentials: GitHubCredentials;
  summary: CredentialSummary;
} {
  if (input.type === 'token')
    return { credentials: { type: 'token', token: input.token }, summary: { type: 'token' } };
  const { appId, installationId, privateKey } = input;
  return {
    credentials: { type: 'app', appId, installationId, privateKey },
    summary: { type: 'app', appId, installationId },
  };
}

export async function currentConnection(
  platform: Platform,
  projectId: string,
): Promise<GitHubConnection | null> {
  return (await loadStream(platform.eventStore, integrationsStream, projectId)).state.github;
}

export const notConnected = (projectId: string) =>
  new AppError(
    'not_found',
    `Project ${projectId} has no GitHub connection; connect one with PUT /api/v1/projects/${projectId}/integrations/github.`,
  );

export const githubIntegrationRoutes = [
  route({
    method: 'put',
    path: '/projects/:id/integrations/github',
    tag: 'Integrations',
    summary:
      "Connect the project to its site's GitHub repository (checked with GitHub before it is saved); returns the webhook secret once",
    params: z.object({ id: idOf('prj') }),
    body: ConnectGitHubBody,
    responses: { 200: GitHubResponse },
    errors: [402, 404, 409, 503],
    async handle(input) {
      const { body, auth, platform } = input;
      const project = await ownedProject(input, input.params.id);
      if (body.publishMode === 'direct') requireFeature(platform, auth, 'direct_push');
      const [owner, repo] = body.repository.split('/');
      const { credentials, summary } = toCredentials(body.credentials);
      const access = await githubClients(platform)
        .port(credentials)
        .validateAccess({ owner, repo, baseBranch: body.baseBranch })
        .catch((error: unknown) => {
          throw accessRefused(error, body.repository);
        });
      if (body.publishMode === 'direct' && !access.canPush) {
        const message = `The base branch "${body.baseBranch}" of ${body.repository} is protected, so direct pushes would be refused; use publishMode "pr", or lift the protection.`;
        throw new AppError('validation_failed', message, {
          details: [{ path: 'body.publishMode', message }],
        });
      }
      const issueSecret =
        body.rotateWebhookSecret || !(await currentConnection(platform, project.id));
      const webhookSecret = issueSecret ? randomBytes(32).toString('hex') : null;
      const result = await platform.commands.execute(
        integrationsStream,
        project.id,
        {
          type: 'ConnectGitHub',
          projectId: project.id,
          accountId: auth.accountId,
          credentials: summary,
          settings: {
            owner,
            repo,
            baseBranch: body.baseBranch,
            contentDirectory: body.contentDirectory,
            coverDirectory: body.coverDirectory,
            publishMode: body.publishMode,
            commentPermission: body.commentPermission,
          },
          sealedCredentials: platform.secrets.seal(JSON.stringify(credentials), {
            kind: 'github-credentials',
            accountId: auth.accountId,
            recordId: project.id,
          }),
          sealedWebhookSecret:
            webhookSecret === null
              ? null
              : platform.secrets.seal(webhookSecret, {
                  kind: 'github-webhook-secret',
                  accountId: auth.accountId,
                  recordId: project.id,
                }),
          at: platform.clock.now(),
        },
        commandContext(input),
      );
      return {
        status: 200,
        body: { github: await present(input, result.state.github!, webhookSecret ?? undefined) },
      };
    },
  }),
  route({
    method: 'get',
    path: '/projects/:id/integrations/github',
    tag: 'Integrations',
    summary: "The project's GitHub connection (which kind of credential, never the credential)",
    params: z.object({ id: idOf('prj') }),
    responses: { 200: GitHubResponse },
    errors: [404],
    async handle(input) {
      const project = await ownedProject(input, input.params.id);
      const connection = await currentConnection(input.platform, project.id);
      if (!connection) throw notConnected(project.id);
      return { status: 200, body: { github: await present(input, connection) } };
    },
  }),
  route({
    method: 'delete',
    path: '/projects/:id/integrations/github',
    tag: 'Integrations',
    summary: 'Disconnect GitHub: nothing more is published; open pull requests stay on GitHub',
    params: z.object({ id: idOf('prj') }),
    responses: { 204: null },
    errors: [404],
    async handle(input) {
      const project = await ownedProject(input, input.params.id);
      if (!(await currentConnection(input.platform, project.id))) throw notConnected(project.id);
      await input.platform.commands.execute(
        integrationsStream,
        project.id,
        { type: 'DisconnectGitHub', at: input.platform.clock.now() },
        commandContext(input),
      );
      return { status: 204 };
    },
  }),
];

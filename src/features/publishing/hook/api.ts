import { z } from 'zod';
import { ownedProject } from '../../projects/owned.ts';
import { AppError } from '../../../core/errors.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import { route, type RouteInput } from '../../../http/route.ts';
import { commandContext } from '../../../http/resources.ts';
import { idOf, WebUrl } from '../../../http/schemas.ts';
import { requireReachableUrl } from '../../../integrations/safeHttp/registration.ts';
import type { Platform } from '../../../platform.ts';
import { generateWebhookSecret } from '../../webhooks/endpoints/secret.ts';
import { ensurePublishingCollections, HOOK_STATUS } from '../collections.ts';
import type { PostPublishHook } from '../../../domain/integrations/integrations.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import type { HookStatusDoc } from './hookDelivery.ts';

const LastDelivery = z
  .object({
    eventId: z.string(),
    articleId: z.string(),
    at: z.string(),
    ok: z.boolean(),
    statusCode: z.number().nullable(),
    error: z.string().nullable(),
    attempts: z.number().int(),
    willRetryAt: z.string().nullable(),
  })
  .nullable()
  .describe('The last call of the hook: what it answered, and when it is tried again if it failed');

const HookBody = z
  .object({
    url: z.string(),
    secret: z
      .string()
      .optional()
      .describe('whsec_…: shown only in the response that issued it (first PUT or rotateSecret)'),
    secretIssuedAt: z.string(),
    setAt: z.string(),
    lastDelivery: LastDelivery,
  })
  .meta({ id: 'PostPublishHook' });

const HookResponse = z.object({ postPublishHook: HookBody });

const SetHook = z
  .object({
    url: WebUrl.describe(
      'Called with a signed POST of the article.published event after every publication, e.g. a site rebuild hook',
    ),
    rotateSecret: z.boolean().default(false),
  })
  .strict();

type Input = RouteInput<{ id: string }, unknown, unknown>;

/** https only, except where private URLs are allowed (local development); the address is judged as every call will judge it. */
async function checkUrl(platform: Platform, url: string): Promise<void> {
  if (!platform.config.INKSTREAM_ALLOW_PRIVATE_URLS && new URL(url).protocol !== 'https:') {
    const message = 'an https:// URL';
    throw new AppError('validation_failed', `Invalid request body: url: ${message}`, {
      details: [{ path: 'body.url', message }],
    });
  }
  await requireReachableUrl(platform.destinations, url, 'url');
}

export async function currentHook(
  platform: Platform,
  projectId: string,
): Promise<PostPublishHook | null> {
  return (await loadStream(platform.eventStore, integrationsStream, projectId)).state
    .postPublishHook;
}

async function present(
  platform: Platform,
  projectId: string,
  hook: PostPublishHook,
  secret?: string,
): Promise<z.infer<typeof HookBody>> {
  await ensurePublishingCollections(platform.readStore);
  const status = await platform.readStore.get<HookStatusDoc>(HOOK_STATUS, projectId);
  const { id: _id, ...lastDelivery } = status ?? { id: '' };
  return {
    url: hook.url,
    ...(secret ? { secret } : {}),
    secretIssuedAt: hook.secretIssuedAt,
    setAt: hook.setAt,
    lastDelivery: status ? (lastDelivery as z.infer<typeof LastDelivery>) : null,
  };
}

export const noHook = (projectId: string) =>
  new AppError(
    'not_found',
    `Project ${projectId} has no post-publish hook; set one with PUT /api/v1/projects/${projectId}/integrations/post-publish-hook.`,
  );

export const postPublishHookRoutes = [
  route({
    method: 'put',
    path: '/projects/:id/integrations/post-publish-hook',
    tag: 'Integrations',
    summary:
      'Set the URL called (signed, retried) after every published article; returns its signing secret once',
    params: z.object({ id: idOf('prj') }),
    body: SetHook,
    responses: { 200: HookResponse },
    errors: [404, 409],
    async handle(input) {
      const { body, auth, platform } = input;
      const project = await ownedProject(input, input.params.id);
      await checkUrl(platform, body.url);
      const secret =
        body.rotateSecret || !(await currentHook(platform, project.id))
          ? generateWebhookSecret()
          : null;
      const result = await platform.commands.execute(
        integrationsStream,
        project.id,
        {
          type: 'SetPostPublishHook',
          projectId: project.id,
          accountId: auth.accountId,
          url: body.url,
          sealedSecret:
            secret === null
              ? null
              : platform.secrets.seal(secret, {
                  kind: 'post-publish-hook-secret',
                  accountId: auth.accountId,
                  recordId: project.id,
                }),
          at: platform.clock.now(),
        },
        commandContext(input),
      );
      return {
        status: 200,
        body: {
          postPublishHook: await present(
            platform,
            project.id,
            result.state.postPublishHook!,
            secret ?? undefined,
          ),
        },
      };
    },
  }),
  route({
    method: 'get',
    path: '/projects/:id/integrations/post-publish-hook',
    tag: 'Integrations',
    summary: 'The post-publish hook and its last delivery (never its secret)',
    params: z.object({ id: idOf('prj') }),
    responses: { 200: HookResponse },
    errors: [404],
    async handle(input) {
      const project = await ownedProject(input, input.params.id);
      const hook = await currentHook(input.platform, project.id);
      if (!hook) throw noHook(project.id);
      return {
        status: 200,
        body: { postPublishHook: await present(input.platform, project.id, hook) },
      };
    },
  }),
  route({
    method: 'delete',
    path: '/projects/:id/integrations/post-publish-hook',
    tag: 'Integrations',
    summary: 'Remove the post-publish hook; calls still due are dropped',
    params: z.object({ id: idOf('prj') }),
    responses: { 204: null },
    errors: [404],
    async handle(input) {
      const project = await ownedProject(input, input.params.id);
      if (!(await currentHook(input.platform, project.id))) throw noHook(project.id);
      await input.platform.commands.execute(
        integrationsStream,
        project.id,
        { type: 'RemovePostPublishHook', at: input.platform.clock.now() },
        commandContext(input),
      );
      return { status: 204 };
    },
  }),
];

import { z } from 'zod';
import { route } from '../../../http/route.ts';
import { idOf } from '../../../http/schemas.ts';
import { ownedProject } from '../../projects/owned.ts';
import { currentHook, noHook } from './api.ts';
import { callHook } from './hookCall.ts';
import { lastHookCalls, recordHookCall, HOOK_CALLS_KEPT, type HookCallDoc } from './hookCalls.ts';
import { hookHttpClient } from './hookDelivery.ts';

/** The type of a test call's envelope: receivers that act only on article.published can ignore it. */
export const HOOK_TEST_EVENT = 'post_publish_hook.test';

const HookCall = z
  .object({
    kind: z
      .enum(['publication', 'test'])
      .describe(
        'publication: an article.published call (each attempt); test: a test call made on request',
      ),
    eventId: z.string(),
    articleId: z.string().nullable(),
    at: z.string(),
    ok: z.boolean().describe('The hook answered 2xx'),
    statusCode: z
      .number()
      .int()
      .nullable()
      .describe(
        'What the hook answered; null when no answer came (refused address, timeout, connection error)',
      ),
    error: z.string().nullable(),
    attempt: z.number().int().describe('1 for the first call of an event, then each retry'),
  })
  .meta({ id: 'PostPublishHookCall' });

const present = ({
  kind,
  eventId,
  articleId,
  at,
  ok,
  statusCode,
  error,
  attempt,
}: HookCallDoc): z.infer<typeof HookCall> => ({
  kind,
  eventId,
  articleId,
  at,
  ok,
  statusCode,
  error,
  attempt,
});

const params = z.object({ id: idOf('prj') });

export const postPublishHookCallRoutes = [
  route({
    method: 'post',
    path: '/projects/:id/integrations/post-publish-hook/test',
    tag: 'Integrations',
    summary:
      'Call the post-publish hook once now with a signed test event (through the same guarded client as real calls) and record the call',
    params,
    responses: { 200: z.object({ call: HookCall }) },
    errors: [404],
    async handle(input) {
      const { platform, auth } = input;
      const project = await ownedProject(input, input.params.id);
      const hook = await currentHook(platform, project.id);
      if (!hook) throw noHook(project.id);
      const eventId = platform.ids.next('evt');
      const nowMs = platform.clock.nowMs();
      const body = JSON.stringify({
        id: eventId,
        type: HOOK_TEST_EVENT,
        createdAt: new Date(nowMs).toISOString(),
        data: {
          projectId: project.id,
          message: 'A test call of the post-publish hook: nothing was published.',
        },
      });
      const client = hookHttpClient(platform);
      try {
        const outcome = await callHook({
          client,
          url: hook.url,
          eventId,
          body,
          nowMs,
          timeoutMs: platform.config.INKSTREAM_WEBHOOK_TIMEOUT_MS,
          secret: platform.secrets.open(hook.sealedSecret, {
            kind: 'post-publish-hook-secret',
            accountId: auth.accountId,
            recordId: project.id,
          }),
        });
        const call = await recordHookCall(platform.readStore, {
          projectId: project.id,
          kind: 'test',
          eventId,
          articleId: null,
          attempt: 1,
          outcome,
        });
        return { status: 200, body: { call: present(call) } };
      } finally {
        await client.close();
      }
    },
  }),
  route({
    method: 'get',
    path: '/projects/:id/integrations/post-publish-hook/calls',
    tag: 'Integrations',
    summary: `The last ${HOOK_CALLS_KEPT} calls of the post-publish hook (publications, retries and test calls), newest first`,
    params,
    responses: { 200: z.object({ calls: z.array(HookCall) }) },
    errors: [404],
    async handle(input) {
      const project = await ownedProject(input, input.params.id);
      return {
        status: 200,
        body: { calls: (await lastHookCalls(input.platform.readStore, project.id)).map(present) },
      };
    },
  }),
];

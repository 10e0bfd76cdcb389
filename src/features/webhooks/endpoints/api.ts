import { z } from 'zod';
import { webhooks, type WebhookDoc } from '../../../../projections/webhooks.ts';
import { releaseSlot, takeSlot } from '../../accounts/planLimits.ts';
import { route } from '../../../http/route.ts';
import { applyAppended, commandContext } from '../../../http/resources.ts';
import { HttpsUrl, listOf, Pagination, PlainLine } from '../../../http/schemas.ts';
import { requireReachableUrl } from '../../../integrations/safeHttp/registration.ts';
import type { ReadStore } from '../../../readstore/port.ts';
import type { Platform } from '../../../platform.ts';
import { ENDPOINT_HEALTH, ensureWebhookCollections } from '../collections.ts';
import { webhookStream } from '../../../domain/webhooks/decide.ts';
import type { HealthDoc } from '../delivery/health.ts';
import { ownedWebhook, WebhookId } from './owned.ts';
import { CreatedWebhookBody, EventType, presentWebhook, WebhookBody } from './schemas.ts';
import { generateWebhookSecret } from './secret.ts';
import { webhookSignal } from '../signal.ts';

const WebhookResponse = z.object({ webhook: WebhookBody });
const Events = z
  .array(EventType)
  .min(1)
  .max(20)
  .describe('Event types to receive; omit (or null on PATCH) for every type');

const Description = PlainLine(200).describe(
  'What the endpoint is for, as one line of plain text (at most 200 characters); empty or null (on PATCH) removes it',
);

const CreateWebhook = z
  .object({ url: HttpsUrl, events: Events.optional(), description: Description.optional() })
  .strict();
const UpdateWebhook = z
  .object({
    events: Events.nullable().optional(),
    description: Description.nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .refine(
    (body) => Object.keys(body).length > 0,
    'send at least one of events, description, enabled',
  );
/** An empty description is no description. */
const descriptionOf = (text: string | null | undefined) =>
  text === undefined ? undefined : text || null;

async function failingSinceOf(
  readStore: ReadStore,
  ids: string[],
): Promise<Map<string, string | null>> {
  await ensureWebhookCollections(readStore);
  const docs = await readStore.getMany<HealthDoc>(ENDPOINT_HEALTH, ids);
  return new Map(docs.map((doc) => [doc.id, doc.failingSince]));
}

async function presentOne(readStore: ReadStore, doc: WebhookDoc) {
  return presentWebhook(doc, (await failingSinceOf(readStore, [doc.id])).get(doc.id) ?? null);
}

export const endpointRoutes = [
  route({
    method: 'post',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'Register an endpoint; the signing secret is returned only here',
    body: CreateWebhook,
    responses: { 201: z.object({ webhook: CreatedWebhookBody }) },
    errors: [402],
    async handle(input) {
      const { body, auth, platform } = input;
      await requireReachableUrl(platform.destinations, body.url, 'url');
      const endpointId = platform.ids.next('whk');
      const secret = generateWebhookSecret();
      const at = platform.clock.now();
      // The cap first, as a slot of the account's endpoint ledger: 402 before anything is written.
      const slot = await takeSlot(
        platform,
        'webhook',
        { accountId: auth.accountId, plan: auth.plan, holderId: endpointId, at },
        commandContext(input, `slot:${endpointId}`),
      );
      const result = await platform.commands
        .execute(
          webhookStream,
          endpointId,
          {
            type: 'RegisterEndpoint',
            endpointId,
            accountId: auth.accountId,
            url: body.url,
            events: body.events ?? null,
            description: descriptionOf(body.description) ?? null,
            sealedSecret: platform.secrets.seal(secret, {
              kind: 'webhook-endpoint-secret',
              accountId: auth.accountId,
              recordId: endpointId,
            }),
            at,
          },
          commandContext(input),
        )
        .catch(async (error: unknown) => {
          await releaseSlot(
            platform,
            slot,
            `the endpoint was not registered: ${(error as Error).message}`,
            commandContext(input, `slot-release:${endpointId}`),
          ).catch((releaseError) =>
            platform.logger.error(
              { err: releaseError, endpointId },
              'a webhook slot could not be given back',
            ),
          );
          throw error;
        });
      const doc = applyAppended(webhooks, null, result.events)!;
      return {
        status: 201,
        body: { webhook: { ...presentWebhook(doc), secret } },
        headers: { Location: `/api/v1/webhooks/${endpointId}` },
      };
    },
  }),
  route({
    method: 'get',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'List endpoints, newest first (secrets are never shown again)',
    query: z.object(Pagination),
    responses: { 200: listOf('webhooks', WebhookBody) },
    async handle({ query, auth, platform }) {
      const page = await platform.readStore.find<WebhookDoc>('webhooks', {
        filter: { accountId: auth.accountId },
        sort: { field: 'createdAt', direction: 'desc' },
        limit: query.limit,
        cursor: query.cursor,
      });
      const failing = await failingSinceOf(
        platform.readStore,
        page.items.map((doc) => doc.id),
      );
      return {
        status: 200,
        body: {
          webhooks: page.items.map((doc) => presentWebhook(doc, failing.get(doc.id) ?? null)),
          nextCursor: page.nextCursor,
        },
      };
    },
  }),
  route({
    method: 'get',
    path: '/webhooks/:id',
    tag: 'Webhooks',
    summary: 'Read an endpoint, with why it is disabled if it is',
    params: z.object({ id: WebhookId }),
    responses: { 200: WebhookResponse },
    errors: [404],
    async handle(input) {
      return {
        status: 200,
        body: { webhook: await presentOne(input.platform.readStore, await ownedWebhook(input)) },
      };
    },
  }),
  route({
    method: 'patch',
    path: '/webhooks/:id',
    tag: 'Webhooks',
    summary: 'Change the subscribed events or the description, or disable and enable the endpoint',
    params: z.object({ id: WebhookId }),
    body: UpdateWebhook,
    responses: { 200: WebhookResponse },
    errors: [404, 409],
    async handle(input) {
      const { params, body, platform } = input;
      const doc = await ownedWebhook(input);
      const result = await platform.commands.execute(
        webhookStream,
        params.id,
        {
          type: 'UpdateEndpoint',
          ...body,
          description: descriptionOf(body.description),
          at: platform.clock.now(),
        },
        commandContext(input),
      );
      webhookSignal(platform).notify([params.id]); // its lane looks again: disabled, it settles what waits
      return {
        status: 200,
        body: {
          webhook: await presentOne(
            platform.readStore,
            applyAppended(webhooks, doc, result.events)!,
          ),
        },
      };
    },
  }),
  route({
    method: 'delete',
    path: '/webhooks/:id',
    tag: 'Webhooks',
    summary: 'Delete an endpoint; deliveries still waiting are dropped',
    params: z.object({ id: WebhookId }),
    responses: { 204: null },
    errors: [404, 409],
    async handle(input) {
      const doc = await ownedWebhook(input);
      await input.platform.commands.execute(
        webhookStream,
        input.params.id,
        { type: 'DeleteEndpoint', at: input.platform.clock.now() },
        commandContext(input),
      );
      webhookSignal(input.platform).notify([input.params.id]);
      // Deleting frees the endpoint's place under the cap (a crash before this keeps it taken: docs/plan-limits.md).
      await releaseSlot(
        input.platform,
        { kind: 'webhook', accountId: doc.accountId, holderId: doc.id, takenAt: doc.createdAt },
        'the endpoint was deleted',
        commandContext(input, `slot-release:${doc.id}`),
      );
      return { status: 204 };
    },
  }),
];

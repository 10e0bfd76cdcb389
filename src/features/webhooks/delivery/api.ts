import { z } from 'zod';
import { AppError } from '../../../core/errors.ts';
import { route } from '../../../http/route.ts';
import { idOf, listOf, Pagination } from '../../../http/schemas.ts';
import { createBodyCache } from './bodies.ts';
import { DELIVERIES, ensureWebhookCollections } from '../collections.ts';
import { dueMsOf } from '../../../readstore/dueKey.ts';
import { deliveryWrite, newDelivery, redelivered, type DeliveryDoc } from './delivery.ts';
import { ownedWebhook, WebhookId } from '../endpoints/owned.ts';
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../../../domain/webhooks/eventTypes.ts';
import { CONCURRENCY_PER_ENDPOINT, isInFlight } from './inFlight.ts';
import {
  DeliveryBody,
  DeliveryDetailBody,
  DeliveryStatus,
  presentDelivery,
} from '../endpoints/schemas.ts';
import { webhookSignal } from '../signal.ts';
import { testEventData } from '../catalogue/examples.ts';

const DeliveryId = idOf('dlv');
const DeliveryResponse = z.object({ delivery: DeliveryBody });
const DeliveryEventType = z
  .enum([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE])
  .describe('Only deliveries of this event type');

type Input = Parameters<typeof ownedWebhook>[0] & { params: { id: string; deliveryId: string } };

async function ownedDelivery(input: Input): Promise<DeliveryDoc> {
  await ownedWebhook(input);
  await ensureWebhookCollections(input.platform.readStore);
  const doc = await input.platform.readStore.get<DeliveryDoc>(DELIVERIES, input.params.deliveryId);
  if (!doc || doc.endpointId !== input.params.id)
    throw new AppError('not_found', `No delivery ${input.params.deliveryId} for this endpoint.`);
  return doc;
}

export const deliveryRoutes = [
  route({
    method: 'get',
    path: '/webhooks/:id/deliveries',
    tag: 'Webhooks',
    summary: 'The delivery log of an endpoint, newest first, with every attempt',
    params: z.object({ id: WebhookId }),
    query: z.object({
      status: DeliveryStatus.optional(),
      type: DeliveryEventType.optional(),
      ...Pagination,
    }),
    responses: { 200: listOf('deliveries', DeliveryBody) },
    errors: [404],
    async handle(input) {
      const { params, query, platform } = input;
      await ownedWebhook(input);
      await ensureWebhookCollections(platform.readStore);
      const page = await platform.readStore.find<DeliveryDoc>(DELIVERIES, {
        filter: {
          endpointId: params.id,
          ...(query.status ? { status: query.status } : {}),
          ...(query.type ? { eventType: query.type } : {}),
        },
        sort: { field: 'id', direction: 'desc' },
        limit: query.limit,
        cursor: query.cursor,
      });
      return {
        status: 200,
        body: { deliveries: page.items.map(presentDelivery), nextCursor: page.nextCursor },
      };
    },
  }),
  route({
    method: 'get',
    path: '/webhooks/:id/deliveries/:deliveryId',
    tag: 'Webhooks',
    summary: 'One delivery, with the exact payload it sends',
    params: z.object({ id: WebhookId, deliveryId: DeliveryId }),
    responses: { 200: z.object({ delivery: DeliveryDetailBody }) },
    errors: [404],
    async handle(input) {
      const doc = await ownedDelivery(input);
      return {
        status: 200,
        body: {
          delivery: {
            ...presentDelivery(doc),
            payload: await createBodyCache(input.platform.readStore).bodyOf(doc),
          },
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/webhooks/:id/deliveries/:deliveryId/redeliver',
    tag: 'Webhooks',
    summary:
      'Send a delivery again now (same id, same bytes), with a fresh run through the retry schedule',
    params: z.object({ id: WebhookId, deliveryId: DeliveryId }),
    responses: { 202: DeliveryResponse },
    errors: [404, 409],
    async handle(input) {
      const { platform } = input;
      const endpoint = await ownedWebhook(input);
      const doc = await ownedDelivery(input);
      if (!endpoint.enabled)
        throw new AppError(
          'invalid_state',
          'The endpoint is disabled: enable it (PATCH { "enabled": true }) before redelivering.',
        );
      if (await isInFlight(platform.readStore, doc.endpointId, doc.id, CONCURRENCY_PER_ENDPOINT)) {
        throw new AppError(
          'invalid_state',
          'This delivery is being sent right now; look at its attempts in a moment.',
        );
      }
      const nowMs = platform.clock.nowMs();
      if (doc.queue !== null && doc.due !== null && dueMsOf(doc.due) <= nowMs)
        return { status: 202, body: { delivery: presentDelivery(doc) } };
      const next = redelivered(doc, nowMs);
      await platform.readStore.commit([deliveryWrite(next)]);
      webhookSignal(platform).notify([doc.endpointId]);
      return { status: 202, body: { delivery: presentDelivery(next) } };
    },
  }),
  route({
    method: 'post',
    path: '/webhooks/:id/test',
    tag: 'Webhooks',
    summary: 'Send a signed webhook.test event to this endpoint only',
    params: z.object({ id: WebhookId }),
    responses: { 202: DeliveryResponse },
    errors: [404, 409],
    async handle(input) {
      const { platform, auth } = input;
      const endpoint = await ownedWebhook(input);
      if (!endpoint.enabled)
        throw new AppError(
          'invalid_state',
          'The endpoint is disabled: enable it (PATCH { "enabled": true }) to send it a test event.',
        );
      await ensureWebhookCollections(platform.readStore);
      const eventId = platform.ids.next('evt');
      const createdAt = platform.clock.now();
      const body = JSON.stringify({
        id: eventId,
        type: TEST_EVENT_TYPE,
        createdAt,
        data: testEventData(endpoint.id),
      });
      const id = platform.ids.next('dlv');
      const doc = newDelivery({
        id,
        accountId: auth.accountId,
        endpointId: endpoint.id,
        eventId,
        eventType: TEST_EVENT_TYPE,
        body,
        seq: 'test',
        nowMs: platform.clock.nowMs(),
      });
      await platform.readStore.commit([
        { kind: 'insert_if_absent', collection: DELIVERIES, id, doc },
      ]);
      webhookSignal(platform).notify([endpoint.id]);
      return { status: 202, body: { delivery: presentDelivery(doc) } };
    },
  }),
];

import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { webhookStream } from '../../../src/domain/webhooks/decide.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';
import { startReceiverPool } from '../../support/webhookReceiver.ts';
import { envelopes, eventually, queueArticle, register } from './harness.ts';

/**
 * Account A's endpoint secret copied into an endpoint of account B (someone with write access to
 * the store): it does not open there, so B's events are never signed with a secret A knows.
 */
let app: TestInkstream;
let receivers: Awaited<ReturnType<typeof startReceiverPool>>;
beforeAll(async () => {
  receivers = await startReceiverPool();
  app = await startInkstream();
  await stopPipeline(app);
});
afterAll(async () => {
  await app.close();
  await receivers.close();
});

test("an endpoint holding another endpoint's sealed secret sends nothing; the account's other endpoints still deliver", async () => {
  const fromA = await receivers.start();
  const endpointA = await register(app, fromA);
  const sealedOfA = (await app.platform.eventStore.readStream(`webhook-${endpointA}`))[0].data
    .sealedSecret as string;

  const keyB = await app.newKey('b');
  const moved = await receivers.start();
  moved.secret = fromA.secret; // what the attacker would verify with
  const accountId = accountIdForName('b');
  const endpointId = app.platform.ids.next('whk');
  await app.platform.commands.execute(
    webhookStream,
    endpointId,
    {
      type: 'RegisterEndpoint',
      endpointId,
      accountId,
      url: moved.url,
      events: null,
      sealedSecret: sealedOfA,
      at: app.platform.clock.now(),
    },
    {
      accountId,
      actor: { kind: 'system', worker: 'test-tamper' },
      correlationId: endpointId,
      requestId: endpointId,
      commandId: `tamper:${endpointId}`,
    },
  );
  const honest = await receivers.start();
  await register(app, honest, { key: keyB });

  const articleId = await queueArticle(app, 'b', 'Only for B');
  await eventually(
    () => envelopes(honest).some((event) => event.data.id === articleId),
    5_000,
    "B's honest endpoint to get the event",
  );
  expect(honest.received.every((request) => request.verified)).toBe(true);
  expect(moved.received).toEqual([]);
  const read = await app.api(keyB).get(`/webhooks/${endpointId}/deliveries`);
  expect(read.status).toBe(200);
  expect(read.body.deliveries.every((delivery: any) => delivery.status !== 'succeeded')).toBe(true);
});

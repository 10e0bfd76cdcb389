import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import {
  createTestCa,
  startReceiver,
  trustInThisProcess,
  type Receiver,
} from '../../support/webhookReceiver.ts';
import { articleIn, startWorld, type World } from './world.ts';

let w: World;
let hook: Receiver;

beforeAll(async () => {
  w = await startWorld({ plan: 'pro', env: { INKSTREAM_WEBHOOK_RETRY_DELAYS: '50ms,50ms' } });
  const ca = await createTestCa();
  trustInThisProcess(ca.caCert);
  hook = await startReceiver(ca, '/rebuild');
});
afterAll(async () => {
  await w.close();
  await hook.close();
});

test('a direct push publishes at once; a failing post-publish hook is retried with the same signed bytes, then gives up', async () => {
  const projectId = await w.project();
  expect((await w.connect(projectId, { publishMode: 'direct' })).status).toBe(200);
  const set = await w.api.put(`/projects/${projectId}/integrations/post-publish-hook`, {
    url: hook.url,
  });
  hook.secret = set.body.postPublishHook.secret;
  hook.behave((_request, count) =>
    count === 1 ? { status: 503, headers: { 'retry-after': '0' } } : { status: 200 },
  );

  const first = await w.draft(projectId, 'Rye bread, step by step');
  await w.api.post(`/articles/${first}/approve`);
  await articleIn(w.api, first, ['merged']);
  await eventually(
    async () => hook.received.length,
    (count) => count === 2,
    { what: 'the retried hook call' },
  );
  const [failed, retried] = hook.received;
  expect(retried.body.equals(failed.body)).toBe(true);
  expect(retried.id).toBe(failed.id);
  expect(hook.received.every((call) => call.verified)).toBe(true);
  const status = await eventually(
    async () =>
      (await w.api.get(`/projects/${projectId}/integrations/post-publish-hook`)).body
        .postPublishHook.lastDelivery,
    (last) => last?.ok === true,
  );
  expect(status).toMatchObject({
    articleId: first,
    statusCode: 200,
    attempts: 2,
    willRetryAt: null,
  });
  const calls = (await w.api.get(`/projects/${projectId}/integrations/post-publish-hook/calls`))
    .body.calls;
  expect(calls).toMatchObject([
    {
      kind: 'publication',
      articleId: first,
      eventId: failed.id,
      attempt: 2,
      ok: true,
      statusCode: 200,
    },
    {
      kind: 'publication',
      articleId: first,
      eventId: failed.id,
      attempt: 1,
      ok: false,
      statusCode: 503,
    },
  ]);

  hook.behave(() => ({ status: 500 }));
  const second = await w.draft(projectId, 'Baguettes without a steam oven');
  await w.api.post(`/articles/${second}/approve`);
  await articleIn(w.api, second, ['merged']);
  const gaveUp = await eventually(
    async () =>
      (await w.api.get(`/projects/${projectId}/integrations/post-publish-hook`)).body
        .postPublishHook.lastDelivery,
    (last) => last?.articleId === second && last.willRetryAt === null,
    { what: 'the hook to give up' },
  );
  expect(gaveUp).toMatchObject({ ok: false, statusCode: 500, attempts: 3 });
  expect(
    hook.received.filter((call) => JSON.parse(call.body.toString()).data.id === second),
  ).toHaveLength(3);
});

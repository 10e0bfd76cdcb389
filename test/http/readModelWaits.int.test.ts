import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountStream } from '../../src/domain/accounts/decide.ts';
import { createApiKey } from '../../src/features/accounts/keys.ts';
import type { Stores } from '../../src/app/stores.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { stopPipeline } from '../support/stopPipeline.ts';

/** While held, no read-model write lands: the read models stay behind the log until release(). */
let held: Promise<void> | null = null;
let release = () => {};
const hold = () => {
  held = new Promise((resolve) => {
    release = () => {
      held = null;
      resolve();
    };
  });
};

function heldReadModels(stores: Stores): Stores {
  const readStore = new Proxy(stores.readStore, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'commit') return value.bind(target);
      return async (...args: unknown[]) => {
        while (held) await held;
        return value.apply(target, args);
      };
    },
  });
  return { ...stores, readStore };
}

let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream({
    env: { INKSTREAM_READ_WAIT_MS: '15000' },
    wrapStores: heldReadModels,
  });
  await stopPipeline(app);
});
afterAll(async () => {
  release();
  await app.close();
});

const settled = <T>(promise: Promise<T>) => {
  const state = { done: false };
  promise.finally(() => {
    state.done = true;
  });
  return state;
};

test('adding a topic to a project already seen does not wait for lagging read models; a first topic of a new project and every read do', async () => {
  const api = app.api();
  const seen = (await api.post('/projects', { name: 'Seen', websiteUrl: 'https://seen.example' }))
    .body.project.id;
  expect((await api.post(`/projects/${seen}/topics`, { title: 'First' })).status).toBe(201);
  await app.platform.readModels.catchUp(5000);

  hold();
  const fresh = await api.post('/projects', { name: 'Fresh', websiteUrl: 'https://fresh.example' });
  expect(fresh.status).toBe(201);
  const firstOfFresh = api.post(`/projects/${fresh.body.project.id}/topics`, {
    title: 'Owner not known yet',
  });
  const whileBehind = await api.post(`/projects/${seen}/topics`, { title: 'While behind' });
  expect(whileBehind.status).toBe(201);
  const listing = api.get(`/projects/${seen}/topics`);
  const [firstOfFreshState, listingState] = [settled(firstOfFresh), settled(listing)];
  expect((await api.post(`/projects/${seen}/topics`, { title: 'Still behind' })).status).toBe(201);
  expect([firstOfFreshState.done, listingState.done]).toEqual([false, false]);

  release();
  expect((await firstOfFresh).status).toBe(201);
  expect((await listing).body.topics.map((topic: { title: string }) => topic.title)).toContain(
    'While behind',
  );
});

test('a key revoked while the read models lag is refused: the remembered key is dropped and its lookup waits for them', async () => {
  const issued = await createApiKey(app.platform, { account: 'lagging-revocation' });
  expect((await app.api(issued.key).get('/projects')).status).toBe(200);
  await app.platform.readModels.catchUp(5000);

  hold();
  await app.platform.commands.execute(
    accountStream,
    issued.accountId,
    { type: 'RevokeApiKey', keyId: issued.id, at: app.platform.clock.now() },
    {
      accountId: issued.accountId,
      actor: { kind: 'cli', user: 'test' },
      correlationId: 'cor_test',
      requestId: 'cor_test',
      commandId: 'revoke-while-behind',
    },
  );
  const refused = app.api(issued.key).get('/projects');
  setImmediate(release);
  const response = await refused;
  expect(response.status).toBe(401);
  expect(response.body.error.message).toContain('revoked');
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { articleStream } from '../../../src/domain/articles/decide.ts';
import { loadConfig } from '../../../src/core/config.ts';
import { createLogger } from '../../../src/core/logger.ts';
import type { Platform } from '../../../src/platform.ts';
import { createPlatform } from '../../../src/app/platform.ts';
import {
  ensureWebhookCollections,
  PUBLIC_EVENTS,
} from '../../../src/features/webhooks/collections.ts';
import { webhookStream } from '../../../src/domain/webhooks/decide.ts';
import type { WebhookEventType } from '../../../src/domain/webhooks/eventTypes.ts';
import { generateWebhookSecret } from '../../../src/features/webhooks/endpoints/secret.ts';
import { createTestCa, startReceiver, type Receiver } from '../../support/webhookReceiver.ts';
import { killHard, startDeliveryChild, type Child } from './childServer.ts';
import { eventually } from './harness.ts';

const ARTICLES = 80;
const accountId = accountIdForName('crash');
let dataDir: string;
let receivers: Receiver[] = [];
let env: Record<string, string>;
let platform: Platform;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'inkstream-webhook-crash-'));
  const ca = await createTestCa();
  writeFileSync(join(dataDir, 'ca.pem'), ca.caCert);
  receivers = await Promise.all([0, 1, 2, 3].map(() => startReceiver(ca)));
  let requests = 0;
  // Every ninth request fails, so retries are in the air when the process dies.
  for (const receiver of receivers)
    receiver.behave(() => (++requests % 9 === 0 ? { status: 500 } : { status: 200 }));
  env = {
    DATA_DIR: dataDir,
    INKSTREAM_ALLOW_PRIVATE_URLS: '1',
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
    NODE_EXTRA_CA_CERTS: join(dataDir, 'ca.pem'),
    INKSTREAM_WEBHOOK_RETRY_DELAYS: '50ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms',
  };
  // The test's own connection to the same DATA_DIR: it registers endpoints and appends, as the API and the pipeline would.
  platform = await createPlatform(loadConfig(env), createLogger('silent'));
  await ensureWebhookCollections(platform.readStore);
});
afterAll(async () => {
  await platform.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

const context = (commandId: string) => ({
  accountId,
  actor: { kind: 'system' as const, worker: 'crash-test' },
  correlationId: commandId,
  requestId: commandId,
  commandId,
});

async function registerEndpoint(
  receiver: Receiver,
  events: WebhookEventType[] | null,
): Promise<void> {
  const endpointId = platform.ids.next('whk');
  receiver.secret = generateWebhookSecret();
  await platform.commands.execute(
    webhookStream,
    endpointId,
    {
      type: 'RegisterEndpoint',
      endpointId,
      accountId,
      url: receiver.url,
      events,
      sealedSecret: platform.secrets.seal(receiver.secret, {
        kind: 'webhook-endpoint-secret',
        accountId,
        recordId: endpointId,
      }),
      at: platform.clock.now(),
    },
    context(endpointId),
  );
}

async function appendBurst(from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) {
    const articleId = platform.ids.next('art');
    await platform.commands.execute(
      articleStream,
      articleId,
      {
        type: 'QueueArticle',
        articleId,
        topicId: 'tpc_crash',
        projectId: 'prj_crash',
        title: `Crash ${i}`,
        keyword: null,
        brief: null,
        trigger: 'api',
        at: platform.clock.now(),
      },
      context(articleId),
    );
    if (i % 10 === 9) await articleCommand(articleId);
  }
}

/** Some articles move on, so one stream gives several events. */
async function articleCommand(articleId: string): Promise<void> {
  await platform.commands.execute(
    articleStream,
    articleId,
    { type: 'StartResearch', at: platform.clock.now() },
    context(`${articleId}:start`),
  );
}

const received = () => receivers.reduce((sum, receiver) => sum + receiver.received.length, 0);

test('SIGKILL again and again while delivering a burst: every (event, endpoint) arrives, with the same id and bytes, and nothing else', async () => {
  const [quiet, ...loud] = receivers;
  for (const receiver of loud) await registerEndpoint(receiver, null);
  await registerEndpoint(quiet, ['topics.suggested']); // a type the burst never produces: it must receive nothing
  let child: Child = await startDeliveryChild(env);
  await appendBurst(0, ARTICLES / 2);

  // Kills at start-up, mid-fan-out and mid-delivery, at points counted in deliveries received.
  // The second half of the burst lands while a child runs, so a later kill meets it mid-fan-out.
  const kills = [0, 25, 60, 0, 90, 40];
  for (const [round, more] of kills.entries()) {
    if (round === 3) await appendBurst(ARTICLES / 2, ARTICLES);
    const before = received();
    await eventually(() => received() >= before + more, 15_000, `${more} more deliveries`);
    await killHard(child);
    child = await startDeliveryChild(env);
  }

  const feed = await eventually(
    async () => {
      const page = await platform.readStore.find<{ id: string; body: string }>(PUBLIC_EVENTS, {
        filter: { accountId },
        limit: 1000,
      });
      return page.items.length === ARTICLES + ARTICLES / 10 && page.items;
    },
    15_000,
    'the whole feed',
  );
  const expected = feed.map((event) => event.id).sort();
  await eventually(
    () =>
      loud.every((receiver) =>
        expected.every((id) => receiver.received.some((request) => request.id === id)),
      ),
    20_000,
    'every pair delivered',
  );
  child.child.kill('SIGTERM');
  expect(await child.exited).toBe(0);

  expect(quiet.received).toEqual([]);
  const bytesById = new Map(feed.map((event) => [event.id, event.body]));
  for (const receiver of loud) {
    expect([...new Set(receiver.received.map((request) => request.id))].sort()).toEqual(expected);
    for (const request of receiver.received) {
      expect(request.verified).toBe(true);
      expect(request.body.toString('utf8')).toBe(bytesById.get(request.id));
    }
  }
  // The 500s (and the kills) made some pairs arrive more than once: same id, same bytes, as checked above.
  expect(received()).toBeGreaterThan(expected.length * loud.length);
}, 60_000);

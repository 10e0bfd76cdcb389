import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApiKey } from '../../../src/features/accounts/keys.ts';
import { loadConfig } from '../../../src/core/config.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { startServer, type RunningServer } from '../../../src/app/start.ts';
import {
  createTestCa,
  startReceiver,
  trustInThisProcess,
  type Receiver,
} from '../../support/webhookReceiver.ts';
import { envelopes, eventually } from './harness.ts';

let dataDir: string;
let receiver: Receiver;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'inkstream-webhook-restart-'));
  const ca = await createTestCa();
  trustInThisProcess(ca.caCert);
  receiver = await startReceiver(ca);
});
afterAll(async () => {
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<RunningServer> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    INKSTREAM_ALLOW_PRIVATE_URLS: '1',
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 5).toString('base64'),
    INKSTREAM_WEBHOOK_TIMEOUT_MS: '15000',
  });
  return await startServer(config, createLogger('silent'), { announce: () => {} });
}

const call = async (
  server: RunningServer,
  key: string,
  method: string,
  path: string,
  body?: unknown,
) => {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
  });
  return {
    status: response.status,
    body: response.status === 204 ? null : ((await response.json()) as any),
  };
};

test('an attempt cut short by a stop is recorded as interrupted and sent again, same id and bytes, after the restart', async () => {
  let server = await start();
  const { key } = await createApiKey(server.platform, { account: 'restart' });
  let answer = false;
  receiver.behave(() => (answer ? { status: 200 } : 'hang'));
  const created = await call(server, key, 'POST', '/webhooks', { url: receiver.url });
  receiver.secret = created.body.webhook.secret;
  const endpointId = created.body.webhook.id;
  const sent = await call(server, key, 'POST', `/webhooks/${endpointId}/test`);
  const deliveryId = sent.body.delivery.id;
  await eventually(() => receiver.received.length === 1);
  expect(
    (await call(server, key, 'POST', `/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`))
      .status,
  ).toBe(409);

  await server.stop(); // the receiver never answered: the attempt is still marked in flight
  answer = true;
  server = await start();
  try {
    const delivery = await eventually(async () => {
      const { body } = await call(
        server,
        key,
        'GET',
        `/webhooks/${endpointId}/deliveries/${deliveryId}`,
      );
      return body.delivery.status === 'succeeded' && body.delivery;
    });
    expect(delivery.attempts).toMatchObject([
      { statusCode: null, error: expect.stringMatching(/^Interrupted/) },
      { statusCode: 200, error: null },
    ]);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].body.equals(receiver.received[0].body)).toBe(true);
    expect(
      receiver.received.every(
        (request) => request.verified && request.id === sent.body.delivery.eventId,
      ),
    ).toBe(true);
    expect(envelopes(receiver)[0].type).toBe('webhook.test');
  } finally {
    await server.stop();
  }
});

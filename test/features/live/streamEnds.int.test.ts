import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { openSse } from '../../support/sseClient.ts';
import { signedInMember } from '../../support/signedInMember.ts';

const clock = manualClock(new Date().toISOString());
let inkstream: TestInkstream;

beforeAll(async () => {
  inkstream = await startInkstream({
    clock,
    env: {
      INKSTREAM_LIVE_STREAMS_PER_ACCOUNT: '1',
      INKSTREAM_LIVE_BUFFER_BYTES: '1024',
      INKSTREAM_LIVE_HEARTBEAT_MS: '200',
    },
  });
}, 60_000);
afterAll(async () => {
  await inkstream?.close();
});

test('a reader too slow to take its changes is disconnected, not buffered for without end', async () => {
  const key = await inkstream.newKey('slow-account');
  const created = await inkstream
    .api(key)
    .post('/projects', { name: 'Slow', websiteUrl: 'http://127.0.0.1:9/' });
  const projectId: string = created.body.project.id;
  const stream = `project-${projectId}`;
  const [first] = await inkstream.platform.eventStore.readStream(stream, { maxCount: 1 });

  // A client that asks for the stream and then never reads a byte of it.
  const { port } = new URL(inkstream.url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(
    `GET /api/v1/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`,
  );
  socket.pause();
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await expect
    .poll(
      async () =>
        (await openSse(`${inkstream.url}/api/v1/live`, { authorization: `Bearer ${key}` })).status,
    )
    .toBe(429);

  // Far more changes than the socket's buffers hold.
  for (let batch = 0; batch < 40; batch++) {
    const events = Array.from({ length: 500 }, (_, index) => ({
      id: randomUUID(),
      type: 'ProjectRenamed',
      data: { projectId, name: `Slow ${batch}-${index}`, at: clock.now() },
      metadata: first.metadata,
    }));
    await inkstream.platform.eventStore.append(stream, events, 'stream_exists');
  }

  // The server let go of it: its place is free again, and the socket ends once read.
  await expect
    .poll(
      async () => {
        const again = await openSse(`${inkstream.url}/api/v1/live`, {
          authorization: `Bearer ${key}`,
        });
        again.close();
        await again.ended;
        return again.status;
      },
      { timeout: 30_000 },
    )
    .toBe(200);
  socket.resume();
  await closed;
}, 120_000);

test('the stream ends when its access token expires, saying so, and a new token resumes it', async () => {
  const member = await signedInMember(inkstream, { email: 'watcher@example.com', role: 'viewer' });
  const {
    body: { accessToken },
  } = await member.request('POST', '/access-token');
  const connection = await openSse(`${inkstream.url}/api/v1/live`, {
    authorization: `Bearer ${accessToken}`,
  });
  expect(connection.status).toBe(200);
  await expect.poll(() => connection.events.some((event) => event.event === 'ready')).toBe(true);

  clock.advance(11 * 60 * 1000); // past the token's ten minutes
  await connection.ended;
  expect(connection.events.at(-1)).toEqual({
    event: 'end',
    data: JSON.stringify({ reason: 'unauthorized' }),
  });

  const expired = await openSse(`${inkstream.url}/api/v1/live`, {
    authorization: `Bearer ${accessToken}`,
  });
  expect(expired.status).toBe(401);
  const { body: renewed } = await member.request('POST', '/access-token');
  const lastId = connection.events.find((event) => event.event === 'ready')!.id!;
  const resumed = await openSse(`${inkstream.url}/api/v1/live`, {
    authorization: `Bearer ${renewed.accessToken}`,
    'last-event-id': lastId,
  });
  expect(resumed.status).toBe(200);
  resumed.close();
}, 60_000);

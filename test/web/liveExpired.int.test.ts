import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openLiveConnection } from '../../web/src/live/liveConnection.ts';

// A stream speaking GET /api/v1/live's wire format: the first connection sends one change and
// ends; a resume from it is refused with 410 resume_expired, as the server answers a client away
// longer than it replays (test/features/live/fairness.int.test.ts); a fresh one is served.
const seen: (string | undefined)[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const lastEventId = req.headers['last-event-id'] as string | undefined;
    seen.push(lastEventId);
    if (lastEventId === '7') {
      res.writeHead(410, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            code: 'resume_expired',
            message: 'read what you show again through the API',
            requestId: 'req_1',
          },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    const change = {
      id: '7',
      kind: 'project',
      event: 'ProjectCreated',
      projectId: 'prj_1',
      at: '',
    };
    res.write(`id: 5\nevent: ready\ndata: {}\n\nid: 7\ndata: ${JSON.stringify(change)}\n\n`);
    if (seen.length === 1) res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/live`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('a resume the server no longer replays (410) has the page read its data again, and the stream goes on from now', async () => {
  let expired = 0;
  let opened = 0;
  const connection = openLiveConnection({
    url,
    token: async () => 'ink_live_token',
    onUnauthorized: () => {},
    onChange: () => {},
    onExpired: () => {
      expired++;
    },
    onOpen: () => {
      opened++;
    },
    backoffMs: () => 10,
  });
  try {
    await expect.poll(() => opened, { timeout: 10_000 }).toBe(2);
    expect(expired).toBe(1);
    expect(seen).toEqual([undefined, '7', undefined]);
  } finally {
    connection.stop();
  }
});

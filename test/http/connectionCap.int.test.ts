import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { eventually } from '../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { parseResponse, rawConnection, type RawConnection } from '../support/rawHttp.ts';

const PROXY = '127.0.0.9';
let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream({
    env: {
      INKSTREAM_CONNECTIONS_PER_ADDRESS: '3',
      INKSTREAM_TRUSTED_PROXIES: `${PROXY},10.0.0.0/8`,
    },
  });
});
afterAll(async () => {
  await app.close();
});
const opened: RawConnection[] = [];
afterEach(() => {
  for (const connection of opened.splice(0)) connection.socket.destroy();
});

/** A kept-alive connection from `from` that has been served one request (so the server has counted it). */
async function servedConnection(from: string, headers = ''): Promise<RawConnection> {
  const connection = rawConnection(app.url, { localAddress: from });
  opened.push(connection);
  await connection.ready;
  const first = new Promise<string>((resolve) =>
    connection.socket.once('data', (chunk) => resolve(String(chunk))),
  );
  connection.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
  expect(await first).toMatch(/^HTTP\/1\.1 200 /);
  return connection;
}

/** One request on a new connection from `from`, answered and closed. */
async function oneRequest(from: string, headers = ''): Promise<ReturnType<typeof parseResponse>> {
  const connection = rawConnection(app.url, { localAddress: from });
  await connection.ready;
  connection.socket.write(
    `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}\r\n`,
  );
  return parseResponse(await connection.answer);
}

/** A request through the proxy for `forwardedFor`, held in flight: its body never comes. */
async function heldThroughProxy(forwardedFor: string): Promise<void> {
  const connection = rawConnection(app.url, { localAddress: PROXY });
  opened.push(connection);
  await connection.ready;
  const continued = new Promise<string>((resolve) =>
    connection.socket.once('data', (chunk) => resolve(String(chunk))),
  );
  connection.socket.write(
    `POST /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${app.key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\nX-Forwarded-For: ${forwardedFor}\r\n\r\n`,
  );
  // node:http answers 100 Continue as it hands the request to Inkstream, so it has been counted.
  expect(await continued).toMatch(/^HTTP\/1\.1 100 /);
}

test('a client past the cap, X-Forwarded-For or not, gets a clean 429 and its connection closed', async () => {
  for (let n = 0; n < 3; n++)
    await servedConnection('127.0.0.5', `X-Forwarded-For: 198.51.100.${n}\r\n`);
  const refused = await oneRequest('127.0.0.5', 'X-Forwarded-For: 198.51.100.99\r\n');
  expect(refused.status).toBe(429);
  expect(refused.headers).toMatchObject({
    'retry-after': '1',
    connection: 'close',
    'x-content-type-options': 'nosniff',
  });
  expect(JSON.parse(refused.body).error).toMatchObject({
    code: 'rate_limited',
    message: expect.stringContaining('Too many open connections'),
  });

  expect((await oneRequest('127.0.0.6')).status).toBe(200);
  opened.shift()!.socket.destroy();
  await eventually(
    () => oneRequest('127.0.0.5'),
    (answer) => answer.status === 200,
    { what: 'a slot freed by a closed connection' },
  );
});

test('through a trusted proxy each client is counted by X-Forwarded-For, and what it wrote itself further left is not believed', async () => {
  for (let n = 0; n < 3; n++) await heldThroughProxy(`203.0.113.${n}, 198.51.100.7`);
  const sameClient = await oneRequest(PROXY, 'X-Forwarded-For: 203.0.113.50, 198.51.100.7\r\n');
  expect(sameClient.status).toBe(429);
  // The proxy's own connections are not capped, and another client behind it is served.
  expect((await oneRequest(PROXY, 'X-Forwarded-For: 198.51.100.8\r\n')).status).toBe(200);
  // A chain of trusted proxies is walked past: 10.1.2.3 is one, so the client is the address before it.
  expect((await oneRequest(PROXY, 'X-Forwarded-For: 198.51.100.7, 10.1.2.3\r\n')).status).toBe(429);
  expect((await oneRequest(PROXY, 'X-Forwarded-For: 198.51.100.9, 10.1.2.3\r\n')).status).toBe(200);
});

test('the default cap leaves room for 120 connections from one address: the 50-connection API bench, 50 parallel sign-ins, open event streams', async () => {
  const roomy = await startInkstream();
  try {
    const held = await Promise.all(
      Array.from({ length: 120 }, async () => {
        const connection = rawConnection(roomy.url);
        await connection.ready;
        const first = new Promise<string>((resolve) =>
          connection.socket.once('data', (chunk) => resolve(String(chunk))),
        );
        connection.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        return { connection, status: parseResponse(await first).status };
      }),
    );
    expect(held.map((entry) => entry.status)).toEqual(Array(120).fill(200));
    for (const entry of held) entry.connection.socket.destroy();
  } finally {
    await roomy.close();
  }
});

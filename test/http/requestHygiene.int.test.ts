import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { parseResponse, rawConnection } from '../support/rawHttp.ts';

let app: TestInkstream;
const serverSockets: Socket[] = [];
beforeAll(async () => {
  app = await startInkstream({
    env: { INKSTREAM_HEADERS_TIMEOUT_MS: '300', INKSTREAM_BODY_TIMEOUT_MS: '300' },
  });
  app.server.on('connection', (socket: Socket) => serverSockets.push(socket));
});
afterAll(async () => {
  await app.close();
});

const MB = 1024 * 1024;
const postHeaders = (path: string, length: number, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

/** Sends the headers and `bodyBytes` of a body that would be 1 MB, then stalls; resolves with the answer. */
async function stalledUpload(path: string, extraHeaders: string, bodyBytes: number) {
  const connection = rawConnection(app.url);
  await connection.ready;
  const before = serverSockets.length;
  connection.socket.write(postHeaders(path, MB, extraHeaders));
  connection.socket.write(Buffer.alloc(bodyBytes, 0x20));
  const text = await connection.answer;
  return {
    ...parseResponse(text),
    serverRead: serverSockets[before]?.bytesRead ?? serverSockets.at(-1)!.bytesRead,
  };
}

test('a stalled upload without a key gets its 401 at once, unread: the server closes the connection without taking the body', async () => {
  const answer = await stalledUpload('/api/v1/projects', '', 900 * 1024);
  expect(answer.status).toBe(401);
  expect(answer.headers.connection).toBe('close');
  expect(JSON.parse(answer.body).error.code).toBe('unauthorized');
  // What the server took off the wire is one socket read (64 KB) that came with the headers, of the 900 KB sent.
  expect(answer.serverRead).toBeLessThanOrEqual(64 * 1024);
  expect((await app.api().get('/projects')).body.projects).toEqual([]);
});

test('a stalled upload with a key that is not valid is refused the same way, and so is one to an unknown path', async () => {
  for (const [path, auth] of [
    ['/api/v1/projects', 'Authorization: Bearer ink_notarealkey\r\n'],
    ['/api/v1/no-such-thing', ''],
  ]) {
    const answer = await stalledUpload(path, auth, 600 * 1024);
    expect({ path, status: answer.status, connection: answer.headers.connection }).toEqual({
      path,
      status: 401,
      connection: 'close',
    });
    expect(answer.serverRead).toBeLessThan(300 * 1024);
  }
});

test('a declared body over 1 MB is refused 413 before a byte of it is read', async () => {
  const connection = rawConnection(app.url);
  await connection.ready;
  connection.socket.write(
    postHeaders('/api/v1/projects', 50 * MB, `Authorization: Bearer ${app.key}\r\n`),
  );
  connection.socket.write(Buffer.alloc(64 * 1024, 0x20));
  const answer = parseResponse(await connection.answer);
  expect(answer.status).toBe(413);
  expect(answer.headers.connection).toBe('close');
});

test('a body that stops arriving is cut off at the body deadline with a 408, and nothing is created', async () => {
  const connection = rawConnection(app.url);
  await connection.ready;
  const body = JSON.stringify({ name: 'Never finished', websiteUrl: 'https://never.example' });
  connection.socket.write(
    postHeaders('/api/v1/projects', body.length, `Authorization: Bearer ${app.key}\r\n`) +
      body.slice(0, 10),
  );
  const answer = parseResponse(await connection.answer);
  expect(answer.status).toBe(408);
  expect(JSON.parse(answer.body).error).toMatchObject({
    code: 'request_timeout',
    message: expect.stringContaining('did not arrive'),
  });
  expect((await app.api().get('/projects')).body.projects).toEqual([]);
});

test("headers that never finish are cut off at the headers timeout with a 408 in the API's error shape", async () => {
  const connection = rawConnection(app.url);
  await connection.ready;
  connection.socket.write('GET /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
  const answer = parseResponse(await connection.answer);
  expect(answer.status).toBe(408);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(JSON.parse(answer.body).error.code).toBe('request_timeout');
});

test('the GitHub events route, which has no API key, refuses an unsigned upload unread and bounds and times a signed one', async () => {
  const path = '/api/v1/integrations/github/events';
  const unsigned = await stalledUpload(path, 'X-GitHub-Event: issue_comment\r\n', 600 * 1024);
  expect(unsigned.status).toBe(401);
  expect(unsigned.serverRead).toBeLessThan(300 * 1024);

  const signed = 'X-GitHub-Event: issue_comment\r\nX-Hub-Signature-256: sha256=00\r\n';
  const stalled = await stalledUpload(path, signed, 600 * 1024);
  expect(stalled.status).toBe(408);

  const connection = rawConnection(app.url);
  await connection.ready;
  connection.socket.write(postHeaders(path, 30 * MB, signed));
  expect(parseResponse(await connection.answer).status).toBe(413);
});

test("a stalled upload over its key's rate limit gets its 429 at once, unread, like a stranger's", async () => {
  const limited = await startInkstream({ env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '1' } });
  try {
    expect((await limited.api().get('/projects')).status).toBe(200);
    const accepted = new Promise<Socket>((resolve) => limited.server.once('connection', resolve));
    const connection = rawConnection(limited.url);
    await connection.ready;
    const serverSocket = await accepted;
    connection.socket.write(
      postHeaders('/api/v1/projects', MB, `Authorization: Bearer ${limited.key}\r\n`),
    );
    connection.socket.write(Buffer.alloc(600 * 1024, 0x20));
    const answer = parseResponse(await connection.answer);
    expect(answer.status).toBe(429);
    expect(answer.headers).toMatchObject({
      connection: 'close',
      'retry-after': expect.stringMatching(/^\d+$/),
    });
    expect(serverSocket.bytesRead).toBeLessThanOrEqual(64 * 1024);
    expect((await limited.api().get('/projects')).status).toBe(429);
  } finally {
    await limited.close();
  }
});

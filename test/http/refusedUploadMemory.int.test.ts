import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { parseResponse, rawConnection } from '../support/rawHttp.ts';

let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream();
});
afterAll(async () => {
  await app.close();
});

const UPLOADS = 100;
const BODY_WITH_HEADERS = 60 * 1024;

test('refused uploads do not leave the body bytes that came with their headers in memory until the next garbage collection', async () => {
  // One write of the headers and 60 KB of a 1 MB body, so the server's first read holds both.
  // The same bytes serve every client, so what this process's buffers grow by is the server's share.
  const request = Buffer.concat([
    Buffer.from(
      `POST /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n`,
    ),
    Buffer.alloc(BODY_WITH_HEADERS, 0x20),
  ]);
  const before = process.memoryUsage().arrayBuffers;
  const statuses = await Promise.all(
    Array.from({ length: UPLOADS }, async (_, i) => {
      const connection = rawConnection(app.url, { localAddress: `127.3.0.${i + 1}` });
      await connection.ready;
      connection.socket.write(request);
      return parseResponse(await connection.answer).status;
    }),
  );
  const grownBy = process.memoryUsage().arrayBuffers - before;
  expect(statuses).toEqual(Array(UPLOADS).fill(401));
  // Kept until collected, the copies would be UPLOADS × 60 KB (6 MB).
  expect(grownBy).toBeLessThan((UPLOADS * BODY_WITH_HEADERS) / 4);
});

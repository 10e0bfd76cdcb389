import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused upload is drained (read and dropped, never kept) before its connection is closed. */
export const LINGER_MS = 2000;

/**
 * Closes the connection of a request answered before its body arrived, without reading the body.
 * node:http would close a `Connection: close` response's socket as soon as the answer is written,
 * after resuming the request to drop its body. Closing with the client's bytes still unread is a
 * TCP reset, which can reach the client before it has read the answer, so a refused client would
 * see only "connection reset"; dropping the body means reading it, up to a megabyte per client.
 * Instead the socket stops reading, what node:http took in with the headers is freed at once,
 * the answer and a FIN are sent, and the socket is closed LINGER_MS later: time enough for the
 * client to read why it was refused, and no more of the body taken in.
 */
export function closeUnread(res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  const socket = res.socket as (Socket & { destroySoon?: () => void }) | null;
  if (!socket || !socket.destroySoon) return;
  socket.pause();
  socket.resume = () => socket; // node:http resumes reading when the request is read or dropped
  for (let chunk: Buffer | null; (chunk = res.req.read()) !== null; ) release(chunk); // the part of the body that came with the headers
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/**
 * Frees a body chunk now rather than when V8 next collects: node:http hands the body bytes that
 * came with the headers to JavaScript as a copy (up to 64 KB a connection), and an idle server
 * collects too seldom for 500 refused uploads' copies not to pile up (docs/http.md). Detaching
 * the chunk's own memory frees it at once; a chunk that shares its memory with others is left alone.
 */
function release(chunk: Buffer): void {
  if (
    chunk.byteOffset === 0 &&
    chunk.byteLength === chunk.buffer.byteLength &&
    chunk.buffer instanceof ArrayBuffer
  )
    chunk.buffer.transfer(0);
}

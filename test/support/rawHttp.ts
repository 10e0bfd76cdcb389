import { connect, type Socket } from 'node:net';

/**
 * A client speaking HTTP/1.1 by hand over one TCP connection, for what fetch cannot do: send part
 * of a request and stall, or connect from another loopback address. `answer` resolves with all the
 * server sent by the time it closed the connection; `bytesWritten` is what the client got to send.
 */
export type RawConnection = { socket: Socket; answer: Promise<string>; ready: Promise<void> };

export function rawConnection(url: string, options: { localAddress?: string } = {}): RawConnection {
  const { hostname, port } = new URL(url);
  const socket = connect({
    host: hostname,
    port: Number(port),
    localAddress: options.localAddress,
  });
  const ready = new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve).once('error', reject);
  });
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      text += chunk;
    });
    // The server may reset a connection whose upload it refused to read: what it answered first still counts.
    socket.on('error', () => {}).once('close', () => resolve(text));
  });
  return { socket, answer, ready };
}

/** The status, headers (lower-case names) and body of the first response in `text`. */
export function parseResponse(text: string): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? text.length);
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: text.slice(end + 4, end + 4 + length),
  };
}

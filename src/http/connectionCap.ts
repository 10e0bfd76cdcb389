import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddressOf, clientKey, plainAddress, trustedProxies } from './clientAddress.ts';

export type ConnectionCap = {
  /** Counts the server's connections per client from now on. */
  watch(server: Server): void;
  /** False when the request's client holds more connections than the cap: answer it 429 and close. */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
};

/**
 * At most `perAddress` connections open per client address (0: no cap). A client connected
 * directly holds one per open socket, counted from accept to close; a socket past the cap has its
 * first request refused. Through a trusted proxy, which carries many clients on its connections,
 * a client holds one per request in flight (an event stream included), counted by the address
 * X-Forwarded-For gives.
 */
export function createConnectionCap(options: {
  perAddress: number;
  trustedProxies: readonly string[];
}): ConnectionCap {
  const { perAddress } = options;
  const isTrusted = trustedProxies(options.trustedProxies);
  const open = new Map<string, number>();
  const pastCap = new WeakSet<Socket>();
  const take = (key: string): boolean => {
    const count = (open.get(key) ?? 0) + 1;
    open.set(key, count);
    return count <= perAddress;
  };
  const release = (key: string) => {
    const count = (open.get(key) ?? 1) - 1;
    if (count === 0) open.delete(key);
    else open.set(key, count);
  };

  return {
    watch(server) {
      if (perAddress === 0) return;
      server.on('connection', (socket: Socket) => {
        const address = plainAddress(socket.remoteAddress);
        if (isTrusted(address)) return;
        const key = clientKey(address);
        // A connection past the cap is refused and holds no slot, so retrying does not prolong the refusal.
        if (take(key)) socket.once('close', () => release(key));
        else {
          release(key);
          pastCap.add(socket);
        }
      });
    },
    admit(req, res) {
      if (perAddress === 0) return true;
      if (pastCap.has(req.socket)) return false;
      if (!isTrusted(plainAddress(req.socket.remoteAddress))) return true;
      const key = clientKey(clientAddressOf(req, isTrusted));
      const admitted = take(key);
      res.once('close', () => release(key));
      return admitted;
    },
  };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import tls from 'node:tls';
import selfsigned from 'selfsigned';
import { startHttpServer, type LocalServer } from './httpServer.ts';

/**
 * HTTPS webhook receivers for tests, signed by a CA the test creates, verifying both signatures
 * on the raw body the way a careful receiver would (written here from docs/webhooks.md, not
 * with Inkstream's own signing code).
 */
export type TestCa = { caCert: string; key: string; cert: string };

/**
 * The test CA of this process, made on first use. One per process, not per file: the trust store is
 * process-wide and test files share a worker process, and a second CA of the same name in it makes
 * TLS verification pick the wrong issuer.
 */
let processCa: Promise<TestCa> | null = null;
export const createTestCa = (): Promise<TestCa> => (processCa ??= generateTestCa());

async function generateTestCa(): Promise<TestCa> {
  const ca = await selfsigned.generate(
    [{ name: 'commonName', value: 'Inkstream Webhook Test CA' }],
    {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true },
      ],
    },
  );
  const leaf = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { caCert: ca.cert, key: leaf.private, cert: leaf.cert };
}

const trusted = new Set<string>();
/** In-process alternative to NODE_EXTRA_CA_CERTS (read only at start): trust the CA for every TLS client. */
export function trustInThisProcess(caCert: string): void {
  if (trusted.has(caCert)) return;
  trusted.add(caCert);
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), caCert]);
}

function equalConstantTime(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function verifyServiceSignature(
  secret: string,
  body: Buffer,
  header: string | undefined,
): boolean {
  if (!header) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  return equalConstantTime(expected, header);
}

export function verifyStandardSignature(
  secret: string,
  headers: http.IncomingHttpHeaders,
  body: Buffer,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string')
    return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest('base64');
  return signatures
    .split(' ')
    .some((entry) => entry.startsWith('v1,') && equalConstantTime(entry.slice(3), expected));
}

export type Received = {
  id: string;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
  /** Both signatures checked against the receiver's secret at arrival. */
  verified: boolean;
  receivedAtMs: number;
};

/** What the receiver does with a request: answer with a status, or misbehave. */
export type Behaviour =
  | { status: number; headers?: Record<string, string>; body?: string }
  | 'hang'
  | 'destroy';

export type Receiver = LocalServer & {
  url: string;
  received: Received[];
  secret: string | null;
  behave(next: (request: Received, count: number) => Behaviour): void;
};

export async function startReceiver(ca: TestCa, path = '/hook'): Promise<Receiver> {
  let behaviour: (request: Received, count: number) => Behaviour = () => ({ status: 204 });
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const receiver = {} as Receiver;
  const server = await startHttpServer(
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const secret = receiver.secret;
        const verified =
          secret !== null &&
          verifyServiceSignature(
            secret,
            body,
            req.headers['x-service-signature'] as string | undefined,
          ) &&
          verifyStandardSignature(secret, req.headers, body);
        const request: Received = {
          id: String(req.headers['webhook-id']),
          body,
          headers: req.headers,
          verified,
          receivedAtMs: performance.timeOrigin + performance.now(),
        };
        received.push(request);
        const action = behaviour(request, received.length);
        if (action === 'hang') {
          hanging.add(res);
          return;
        }
        if (action === 'destroy') {
          req.socket.destroy();
          return;
        }
        res.writeHead(action.status, action.headers).end(action.body ?? '');
      });
    },
    { tls: { key: ca.key, cert: ca.cert } },
  );
  return Object.assign(receiver, server, {
    url: `https://127.0.0.1:${server.port}${path}`,
    received,
    secret: null,
    behave(next: (request: Received, count: number) => Behaviour) {
      behaviour = next;
    },
  });
}

/**
 * Receivers under one test CA that this process trusts, started as a test needs them and closed
 * together: `start()` inside tests, `close()` after them.
 */
export async function startReceiverPool(): Promise<{
  start(): Promise<Receiver>;
  close(): Promise<void>;
}> {
  const ca = await createTestCa();
  trustInThisProcess(ca.caCert);
  const started: Receiver[] = [];
  return {
    async start() {
      const receiver = await startReceiver(ca);
      started.push(receiver);
      return receiver;
    },
    async close() {
      await Promise.all(started.map((receiver) => receiver.close()));
    },
  };
}

import { afterAll, beforeAll, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import selfsigned from 'selfsigned';
import {
  HttpConnectionError,
  createSafeHttpClient,
} from '../../../src/integrations/safeHttp/index.ts';
import { startHttpServer, type LocalServer } from '../../support/httpServer.ts';

// A private CA, and a server certificate for inkstream.test signed by it: what a self-hosted
// deployment behind a corporate CA looks like.
let ca: { cert: string };
let server: LocalServer;
let dir: string;
const resolveHost = async () => [{ address: '127.0.0.1', family: 4 as const }];
const clientPath = new URL('../../../src/integrations/safeHttp/index.ts', import.meta.url).href;

beforeAll(async () => {
  const caPems = await selfsigned.generate([{ name: 'commonName', value: 'Inkstream Test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true },
    ],
  });
  const leaf = await selfsigned.generate([{ name: 'commonName', value: 'inkstream.test' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: caPems.private, cert: caPems.cert },
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'inkstream.test' }] }],
  });
  ca = { cert: caPems.cert };
  server = await startHttpServer((_req, res) => res.end('secure hello'), {
    tls: { key: leaf.private, cert: leaf.cert },
  });
  dir = await mkdtemp(join(tmpdir(), 'inkstream-tls-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const siteUrl = () => `https://inkstream.test:${server.port}/`;

test('a certificate from an unknown CA is refused with advice on trusting it', async () => {
  const client = createSafeHttpClient({ allowPrivateAddresses: true, resolveHost });
  try {
    const error = await client.request(siteUrl()).catch((e) => e);
    expect(error).toBeInstanceOf(HttpConnectionError);
    expect(error.reason).toBe('tls');
    expect(error.message).toMatch(/NODE_EXTRA_CA_CERTS/);
  } finally {
    await client.close();
  }
});

test('the ca option trusts a private CA in addition to the public ones', async () => {
  const client = createSafeHttpClient({ allowPrivateAddresses: true, resolveHost, ca: ca.cert });
  try {
    const response = await client.request(siteUrl());
    expect(response.body.toString()).toBe('secure hello');
  } finally {
    await client.close();
  }
});

test('NODE_EXTRA_CA_CERTS is honoured without any option', async () => {
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, ca.cert);
  const script = `
    const { createSafeHttpClient } = await import(${JSON.stringify(clientPath)});
    const client = createSafeHttpClient({ allowPrivateAddresses: true,
      resolveHost: async () => [{ address: '127.0.0.1', family: 4 }] });
    const response = await client.request(${JSON.stringify(siteUrl())});
    console.log(response.status, response.body.toString());
    await client.close();`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script],
    {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile },
    },
  );
  expect(stdout.trim()).toBe('200 secure hello');
});

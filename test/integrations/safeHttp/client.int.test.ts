import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gzipSync } from 'node:zlib';
import {
  BlockedAddressError,
  HttpConnectionError,
  HttpTimeoutError,
  InvalidUrlError,
  ResponseTooLargeError,
  TooManyRedirectsError,
  createSafeHttpClient,
  type SafeHttpClient,
} from '../../../src/integrations/safeHttp/index.ts';
import { startHttpServer, type LocalServer } from '../../support/httpServer.ts';

let server: LocalServer;
const seen: Array<{ method: string; url: string; userAgent?: string; body: string }> = [];

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        userAgent: req.headers['user-agent'],
        body,
      });
      const path = req.url ?? '/';
      if (path === '/hello') return void res.end('hello');
      if (path === '/big') return void res.end('x'.repeat(10_000));
      if (path === '/big-chunked') {
        res.write('y'.repeat(6_000));
        return void res.end('y'.repeat(6_000));
      }
      if (path === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        return void res.end(gzipSync('compressed hello'));
      }
      if (path === '/hang') return; // never answers
      if (path === '/stall-body') {
        res.writeHead(200, { 'content-length': '100' });
        return void res.write('partial');
      }
      if (path.startsWith('/redirect-to?')) {
        res.writeHead(Number(new URL(path, 'http://x').searchParams.get('status') ?? 302), {
          location: new URL(path, 'http://x').searchParams.get('to') ?? '/',
        });
        return void res.end();
      }
      if (path === '/loop') {
        res.writeHead(302, { location: '/loop' });
        return void res.end();
      }
      res.writeHead(404).end('not found');
    });
  });
});
afterAll(() => server.close());

const withClient = async (
  options: Parameters<typeof createSafeHttpClient>[0],
  run: (client: SafeHttpClient) => Promise<void>,
) => {
  const client = createSafeHttpClient(options);
  try {
    await run(client);
  } finally {
    await client.close();
  }
};
const redirectTo = (to: string, status = 302) =>
  `${server.origin}/redirect-to?status=${status}&to=${encodeURIComponent(to)}`;

describe('only public addresses are reached', () => {
  test('a loopback IP literal is refused before any connection is made', async () => {
    const before = server.connectionCount();
    await withClient({}, async (client) => {
      const error = await client.request(`${server.origin}/hello`).catch((e) => e);
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect(error.message).toMatch(
        /127\.0\.0\.1 is not a public address.*INKSTREAM_ALLOW_PRIVATE_URLS/,
      );
      expect(error.range).toBe('loopback');
    });
    expect(server.connectionCount()).toBe(before);
  });

  test('the cloud metadata address is refused', async () => {
    await withClient({}, async (client) => {
      await expect(
        client.request('http://169.254.169.254/latest/meta-data/'),
      ).rejects.toMatchObject({
        kind: 'blocked_address',
        range: expect.stringMatching(/link-local/),
      });
    });
  });

  test('a hostname that resolves to 127.0.0.1 is refused', async () => {
    await withClient({}, async (client) => {
      const error = await client.request(`http://localhost:${server.port}/hello`).catch((e) => e);
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect(error.hostname).toBe('localhost');
      expect(error.message).toMatch(
        /^Refused to connect: localhost does not resolve to a public address\./,
      );
      expect(error.message).not.toMatch(/127\.0\.0\.1|::1|loopback/);
    });
  });

  test('one private address among public ones is enough to refuse the host', async () => {
    const resolveHost = async () => [
      { address: '93.184.216.34', family: 4 as const },
      { address: '10.0.0.7', family: 4 as const },
    ];
    await withClient({ resolveHost }, async (client) => {
      await expect(client.request('http://mixed.test/')).rejects.toMatchObject({
        kind: 'blocked_address',
        address: '10.0.0.7',
      });
    });
  });

  test('a redirect from an allowed server to a blocked address is refused at that hop', async () => {
    const resolveHost = async (name: string) => [
      { address: name === 'metadata.test' ? '169.254.169.254' : '127.0.0.1', family: 4 as const },
    ];
    await withClient(
      { allowedAddressRanges: ['127.0.0.1/32'], resolveHost, maxRedirects: 5 },
      async (client) => {
        expect((await client.request(`${server.origin}/hello`)).body.toString()).toBe('hello');
        const literal = await client.request(redirectTo('http://127.0.0.2/admin')).catch((e) => e);
        expect(literal).toBeInstanceOf(BlockedAddressError);
        expect(literal.url).toBe('http://127.0.0.2/admin');
        const named = await client
          .request(redirectTo(`http://metadata.test:${server.port}/latest`))
          .catch((e) => e);
        expect(named).toMatchObject({
          kind: 'blocked_address',
          hostname: 'metadata.test',
          address: '169.254.169.254',
        });
      },
    );
  });

  test('allowPrivateAddresses reaches local servers', async () => {
    await withClient({ allowPrivateAddresses: true }, async (client) => {
      const response = await client.request(`http://localhost:${server.port}/hello`);
      expect(response).toMatchObject({
        status: 200,
        truncated: false,
        url: `http://localhost:${server.port}/hello`,
      });
      expect(seen.at(-1)?.userAgent).toMatch(/^Inkstream\//);
    });
  });
});

test.each([
  ['ftp://example.com/file', /only http and https/],
  ['https://user:secret@example.com/', /user name or password/],
  ['/relative/path', /not an absolute URL/],
])('%s is rejected with an explanation', async (url, message) => {
  await withClient({}, async (client) => {
    const error = await client.request(url).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidUrlError);
    expect(error.message).toMatch(message);
  });
});

describe('redirects', () => {
  test('with no redirects allowed, a 3xx comes back as it is', async () => {
    await withClient({ allowPrivateAddresses: true }, async (client) => {
      const response = await client.request(redirectTo('/hello'));
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe('/hello');
    });
  });

  test('followed hops are reported and a 303 after a POST becomes a GET without body', async () => {
    await withClient({ allowPrivateAddresses: true }, async (client) => {
      const response = await client.request(redirectTo('/hello', 303), {
        method: 'POST',
        body: 'payload',
        maxRedirects: 5,
      });
      expect(response).toMatchObject({
        status: 200,
        url: `${server.origin}/hello`,
        redirects: [redirectTo('/hello', 303)],
      });
      expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/hello', body: '' });
    });
  });

  test('a redirect loop ends after the allowed number of hops', async () => {
    await withClient({ allowPrivateAddresses: true, maxRedirects: 3 }, async (client) => {
      await expect(client.request(`${server.origin}/loop`)).rejects.toBeInstanceOf(
        TooManyRedirectsError,
      );
    });
  });
});

describe('time and size limits', () => {
  test('a server that never answers ends in a timeout', async () => {
    await withClient({ allowPrivateAddresses: true }, async (client) => {
      const error = await client
        .request(`${server.origin}/hang`, { timeoutMs: 150 })
        .catch((e) => e);
      expect(error).toBeInstanceOf(HttpTimeoutError);
      expect(error.message).toMatch(/within 150 ms/);
    });
  });

  test('the timeout covers the body, not only the headers', async () => {
    await withClient({ allowPrivateAddresses: true, timeoutMs: 150 }, async (client) => {
      await expect(client.request(`${server.origin}/stall-body`)).rejects.toBeInstanceOf(
        HttpTimeoutError,
      );
    });
  });

  test.each(['/big', '/big-chunked'])(
    '%s over the cap fails, or is truncated when asked',
    async (path) => {
      await withClient({ allowPrivateAddresses: true, maxBytes: 1_000 }, async (client) => {
        await expect(client.request(`${server.origin}${path}`)).rejects.toBeInstanceOf(
          ResponseTooLargeError,
        );
        const cut = await client.request(`${server.origin}${path}`, { onTooLarge: 'truncate' });
        expect(cut.truncated).toBe(true);
        expect(cut.body.length).toBe(1_000);
      });
    },
  );

  test('a compressed body is decoded', async () => {
    await withClient({ allowPrivateAddresses: true }, async (client) => {
      const response = await client.request(`${server.origin}/gzip`);
      expect(response.body.toString()).toBe('compressed hello');
      expect(response.headers['content-encoding']).toBeUndefined();
    });
  });
});

test('sequential requests to one origin reuse the kept-alive connection', async () => {
  await withClient({ allowPrivateAddresses: true, connectionsPerOrigin: 1 }, async (client) => {
    const before = server.connectionCount();
    for (let i = 0; i < 3; i++)
      expect((await client.request(`${server.origin}/hello`)).status).toBe(200);
    expect(server.connectionCount() - before).toBe(1);
  });
});

test('a closed port is reported as a refused connection', async () => {
  const closed = await startHttpServer(() => {});
  await closed.close();
  await withClient({ allowPrivateAddresses: true }, async (client) => {
    const error = await client.request(`${closed.origin}/`).catch((e) => e);
    expect(error).toBeInstanceOf(HttpConnectionError);
    expect(error).toMatchObject({ reason: 'refused', code: 'ECONNREFUSED' });
  });
});

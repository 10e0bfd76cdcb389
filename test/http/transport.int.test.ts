import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream();
});
afterAll(async () => {
  await app.close();
});

const authorized = () => ({ authorization: `Bearer ${app.key}` });

test('health checks answer GET and HEAD, with or without a trailing slash; anything else outside /api/v1 is a 404 pointing at it', async () => {
  expect(await (await fetch(`${app.url}/healthz`)).json()).toEqual({ ok: true });
  expect((await fetch(`${app.url}/healthz/`, { method: 'HEAD' })).status).toBe(200);
  expect((await fetch(`${app.url}/readyz`)).status).toBeLessThan(600);
  const elsewhere = await fetch(`${app.url}/api/v10/projects`);
  expect(elsewhere.status).toBe(404);
  expect(((await elsewhere.json()) as { error: { message: string } }).error.message).toBe(
    'Nothing at /api/v10/projects; the API lives under /api/v1.',
  );
  expect((await fetch(`${app.url}/healthz`, { method: 'POST' })).status).toBe(404);
});

test("every response carries a request id: the caller's own when it is sensible, else a new one", async () => {
  const own = await fetch(`${app.url}/api/v1/projects`, {
    headers: { ...authorized(), 'x-request-id': 'trace-42.a' },
  });
  expect(own.headers.get('x-request-id')).toBe('trace-42.a');
  const odd = await fetch(`${app.url}/nowhere`, {
    headers: { 'x-request-id': 'no spaces please' },
  });
  expect(odd.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{26}$/);
  expect(((await odd.json()) as { error: { requestId: string } }).error.requestId).toBe(
    odd.headers.get('x-request-id'),
  );
});

test('the API prefix matches in any case, and HEAD answers a GET endpoint without the body', async () => {
  expect((await fetch(`${app.url}/API/V1/projects`, { headers: authorized() })).status).toBe(200);
  const head = await fetch(`${app.url}/api/v1/projects`, { method: 'HEAD', headers: authorized() });
  expect(head.status).toBe(200);
  expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  expect(await head.text()).toBe('');
});

test('a body is judged before the endpoint: not JSON is 415 and broken JSON 400, even where there is no endpoint', async () => {
  const post = (body: string, type: string) =>
    fetch(`${app.url}/api/v1/no-such-thing`, {
      method: 'POST',
      headers: { ...authorized(), 'content-type': type },
      body,
    });
  expect((await post('a=1', 'text/plain')).status).toBe(415);
  expect((await post('{"a":', 'application/json')).status).toBe(400);
  expect((await post('{"a":1}', 'application/json')).status).toBe(404);
});

test('the plain-JSON body reader answers every body as body-parser does', async () => {
  // "application/json" alone takes the plain reader; with another parameter body-parser reads it.
  const status = async (body: string, type: string) =>
    (
      await fetch(`${app.url}/api/v1/no-such-thing`, {
        method: 'POST',
        headers: { ...authorized(), 'content-type': type },
        body,
      })
    ).status;
  const bodies = [
    '{"a":1}',
    '[1,2]',
    '',
    '  ',
    '"text"',
    '12',
    '\uFEFF{"a":"é"}',
    '{"a":',
    '{"a":1} x',
    ' \n{"a":1}',
  ];
  const plain = await Promise.all(bodies.map((body) => status(body, 'application/json')));
  const viaBodyParser = await Promise.all(
    bodies.map((body) => status(body, 'application/json; x=1')),
  );
  expect(plain).toEqual(viaBodyParser);
  expect(plain).toEqual([404, 404, 404, 400, 400, 400, 404, 400, 400, 404]);
});

test('a body cut short of its Content-Length creates nothing, and the server goes on serving', async () => {
  const before = (await app.api().get('/projects')).body.projects.length;
  const port = Number(new URL(app.url).port);
  const body = JSON.stringify({ name: 'Cut short', websiteUrl: 'https://cut.example' });
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end(
        `POST /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${app.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length + 10}\r\n\r\n${body}`,
      );
    });
    socket
      .on('close', () => resolve())
      .on('error', reject)
      .resume();
  });
  const after = await app.api().get('/projects');
  expect(after.status).toBe(200);
  expect(after.body.projects).toHaveLength(before);
});

test('the API prefix is a whole path segment: /api/v1 and /api/v1?x are the index, /api/v10 is outside the API', async () => {
  const get = async (path: string) => {
    const response = await fetch(`${app.url}${path}`, { headers: authorized() });
    return {
      status: response.status,
      body: (await response.json()) as { openapi?: string; error?: { message: string } },
      id: response.headers.get('x-request-id'),
    };
  };
  for (const path of ['/api/v1', '/api/v1/', '/Api/V1?x=1']) {
    const { status, body, id } = await get(path);
    expect({ path, status, openapi: typeof body.openapi, id }).toEqual({
      path,
      status: 200,
      openapi: 'string',
      id: expect.stringMatching(/^req_/),
    });
  }
  const outside = await get('/api/v10/projects');
  expect(outside.status).toBe(404);
  expect(outside.body.error!.message).toMatch(
    /^Nothing at \/api\/v10\/projects; the API lives under \/api\/v1/,
  );
  expect(outside.id).toMatch(/^req_/);
});

test('a request in absolute form is served like its path', async () => {
  const port = new URL(app.url).port;
  const response = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.end(
        `GET http://127.0.0.1:${port}/healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
      );
    });
    let text = '';
    socket
      .setEncoding('utf8')
      .on('data', (chunk) => {
        text += chunk;
      })
      .on('end', () => resolve(text))
      .on('error', reject);
  });
  expect(response).toMatch(/^HTTP\/1\.1 200 /);
  expect(response).toContain('{"ok":true}');
});

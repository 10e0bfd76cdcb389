import { z } from 'zod';
import { expect, test } from 'vitest';
import { createDispatcher } from '../../src/http/dispatch.ts';
import { route } from '../../src/http/route.ts';

const ok = async () => ({ status: 200 });
const routes = [
  route({
    method: 'get',
    path: '/',
    tag: 't',
    summary: 's',
    responses: { 200: z.object({}) },
    handle: ok,
  }),
  route({
    method: 'get',
    path: '/projects/:id',
    tag: 't',
    summary: 's',
    responses: { 200: z.object({}) },
    handle: ok,
  }),
  route({
    method: 'post',
    path: '/projects/:id/topics',
    tag: 't',
    summary: 's',
    responses: { 200: z.object({}) },
    handle: ok,
  }),
  route({
    method: 'get',
    path: '/articles/:id/versions/:n',
    tag: 't',
    summary: 's',
    responses: { 200: z.object({}) },
    handle: ok,
  }),
];
const dispatcher = createDispatcher(routes);
const matched = (method: string, path: string) => {
  const found = dispatcher.match(method, path);
  return found && { path: found.route.path, params: found.params };
};

test('matches as express does: by method and pattern, any case, an optional trailing slash, HEAD as GET', () => {
  expect(matched('GET', '/')).toEqual({ path: '/', params: {} });
  expect(matched('GET', '/projects/prj_1')).toEqual({
    path: '/projects/:id',
    params: { id: 'prj_1' },
  });
  expect(matched('HEAD', '/Projects/prj_1/')).toEqual({
    path: '/projects/:id',
    params: { id: 'prj_1' },
  });
  expect(matched('POST', '/projects/prj_1/topics')).toEqual({
    path: '/projects/:id/topics',
    params: { id: 'prj_1' },
  });
  expect(matched('GET', '/articles/art_1/versions/3')).toEqual({
    path: '/articles/:id/versions/:n',
    params: { id: 'art_1', n: '3' },
  });
});

test('parameters are percent-decoded, and what matches no route is null', () => {
  expect(matched('GET', '/projects/a%20b')?.params).toEqual({ id: 'a b' });
  expect(() => dispatcher.match('GET', '/projects/%E0%A4%A')).toThrow(URIError);
  for (const [method, path] of [
    ['POST', '/projects/prj_1'],
    ['GET', '/projects/'],
    ['GET', '/projects/a/b'],
    ['DELETE', '/projects/prj_1'],
    ['GET', '/nothing'],
  ]) {
    expect(matched(method, path)).toBeNull();
  }
});

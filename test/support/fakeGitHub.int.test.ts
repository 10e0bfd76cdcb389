import { afterEach, expect, test } from 'vitest';
import { FakeGitHub } from './fakeGitHub.ts';
import { assertRestResponse } from './fakeGitHub/openapi.ts';

let github: FakeGitHub | undefined;
afterEach(async () => {
  await github?.close();
});

test("a response body that drifts from GitHub's OpenAPI description is reported, not served", async () => {
  const violations: Error[] = [];
  github = await FakeGitHub.start({ onContractViolation: (error) => violations.push(error) });
  github.addRepository({ owner: 'acme', name: 'site' });
  github.addToken('t', { login: 'inkbot', repositories: { 'acme/site': 'read' } });
  github.failNext('repos/get', { status: 200, body: { id: 1, name: 'site' } });

  const response = await fetch(`${github.baseUrl}/repos/acme/site`, {
    headers: { authorization: 'token t' },
  });
  expect(response.status).toBe(500);
  expect(violations).toHaveLength(1);
  expect(violations[0].message).toMatch(
    /repos\/get 200 response does not match GitHub's OpenAPI description/,
  );
  expect(violations[0].message).toMatch(/must have required property 'full_name'/);
});

test('a route the fake does not implement is a violation too', async () => {
  const violations: Error[] = [];
  github = await FakeGitHub.start({ onContractViolation: (error) => violations.push(error) });
  await fetch(`${github.baseUrl}/repos/acme/site/releases`, {
    headers: { authorization: 'token t' },
  });
  expect(violations[0].message).toMatch(/no route for GET \/repos\/acme\/site\/releases/);
});

test("error bodies are checked too: GitHub's validation errors need a documentation_url", () => {
  expect(() => assertRestResponse('pulls/create', 422, { message: 'Validation Failed' })).toThrow(
    /documentation_url/,
  );
  expect(() =>
    assertRestResponse('pulls/create', 422, {
      message: 'Validation Failed',
      documentation_url: 'https://docs.github.com/rest',
    }),
  ).not.toThrow();
});

test("tokens see only their repositories, and weak grants get GitHub's 403 with the accepted permission", async () => {
  github = await FakeGitHub.start();
  github.addRepository({ owner: 'acme', name: 'site' });
  github.addToken('reader', { login: 'viewer', repositories: { 'acme/site': 'read' } });
  const call = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${github!.baseUrl}${path}`, { ...init, headers: { authorization: `token ${token}` } });

  expect((await call('/repos/acme/site', 'nope')).status).toBe(401);
  expect((await call('/repos/acme/other', 'reader')).status).toBe(404);
  const refused = await call('/repos/acme/site/git/blobs', 'reader', {
    method: 'POST',
    body: JSON.stringify({ content: 'x' }),
  });
  expect(refused.status).toBe(403);
  expect(refused.headers.get('x-accepted-github-permissions')).toBe('contents=write');
  expect(github.requests.map((r) => [r.operationId, r.status])).toEqual([
    ['repos/get', 401],
    ['repos/get', 404],
    ['git/create-blob', 403],
  ]);
});

test('the collaborator-permission endpoint answers base permission and role as GitHub does, checked against its description', async () => {
  github = await FakeGitHub.start();
  github.addRepository({ owner: 'acme', name: 'site' });
  github.addRepository({ owner: 'acme', name: 'public', private: false });
  github.addToken('t', {
    login: 'inkbot',
    repositories: { 'acme/site': 'read', 'acme/public': 'read' },
  });
  github.addCollaborator('acme', 'site', 'mia', 'maintain');
  github.addCollaborator('acme', 'site', 'tom', 'triage');
  const permissionOf = async (repo: string, login: string) => {
    const response = await fetch(
      `${github!.baseUrl}/repos/acme/${repo}/collaborators/${login}/permission`,
      { headers: { authorization: 'token t' } },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      permission: string;
      role_name: string;
      user: { login: string };
    };
    return [body.permission, body.role_name, body.user.login];
  };
  expect(await permissionOf('site', 'acme')).toEqual(['admin', 'admin', 'acme']);
  expect(await permissionOf('site', 'mia')).toEqual(['write', 'maintain', 'mia']);
  expect(await permissionOf('site', 'tom')).toEqual(['read', 'triage', 'tom']);
  expect(await permissionOf('site', 'stranger')).toEqual(['none', 'none', 'stranger']);
  expect(await permissionOf('public', 'stranger')).toEqual(['read', 'read', 'stranger']);
  expect(github.violations).toEqual([]);
  expect(github.associationOf('acme', 'site', 'acme')).toBe('OWNER');
  expect(github.associationOf('acme', 'site', 'mia')).toBe('COLLABORATOR');
  expect(github.associationOf('acme', 'site', 'stranger')).toBe('NONE');
});

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FakeGitHub } from '../../support/fakeGitHub.ts';
import type { ApiClient } from '../../support/inkstream.ts';
import { startTestSite, type TestSite } from '../../support/testSite.ts';
import { startKillSwitchProxy, type KillPoint, type KillSwitchProxy } from './killSwitchProxy.ts';
import { articleIn } from './world.ts';
import { eventually } from '../../support/eventually.ts';

const CHILD = join(import.meta.dirname, 'serverChild.ts');

type Running = { child: ChildProcess; exited: Promise<number | null>; api: ApiClient };

function apiAt(url: string, key: string): ApiClient {
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : null,
      headers: response.headers,
    };
  };
  return {
    request,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body),
    patch: (path, body) => request('PATCH', path, body),
    put: (path, body) => request('PUT', path, body),
    delete: (path) => request('DELETE', path),
  };
}

function startChild(env: Record<string, string>): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const ready = /READY (\{.*\})\n/.exec(stdout);
      if (ready) {
        const { url, key } = JSON.parse(ready[1]);
        resolve({ child, exited, api: apiAt(url, key) });
      }
    });
    child.on('error', reject);
    void exited.then((code) =>
      reject(new Error(`the Inkstream child exited (${code}) before it was ready: ${stderr}`)),
    );
  });
}

let github: FakeGitHub;
let site: TestSite;
let proxy: KillSwitchProxy;
let dataDir: string;
let running: Running | null = null;

beforeAll(async () => {
  github = await FakeGitHub.start();
  github.addRepository({ owner: 'acme', name: 'site', files: { 'README.md': '# Acme\n' } });
  github.addToken('ghp_writer', { login: 'inkbot', repositories: { 'acme/site': 'write' } });
  site = await startTestSite();
  proxy = await startKillSwitchProxy(github.baseUrl);
  dataDir = mkdtempSync(join(tmpdir(), 'ink-publish-crash-'));
});
afterAll(async () => {
  running?.child.kill('SIGKILL');
  await running?.exited;
  await Promise.all([github.close(), site.close(), proxy.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

const mainLength = () => github.branchHistory('acme', 'site', 'main').length;
const pullsFrom = (branch: string) =>
  [...github.repository('acme', 'site').pulls.values()].filter((pull) => pull.head === branch);

async function draft(api: ApiClient, projectId: string, title: string): Promise<string> {
  const topic = await api.post(`/projects/${projectId}/topics`, { title });
  const written = await api.post(`/topics/${topic.body.topic.id}/write`);
  await articleIn(api, written.body.article.id, ['draft']);
  return written.body.article.id;
}

/** Approves, lets GitHub apply the request at `point`, kills the server before it hears the answer, and starts it again. */
async function approveAndCrash(
  projectId: string,
  articleId: string,
  point: KillPoint,
): Promise<Running> {
  const fired = proxy.arm(point, running!.child);
  expect((await running!.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  await fired;
  expect(await running!.exited).toBeNull(); // died by the signal
  running = await startChild({
    DATA_DIR: dataDir,
    GITHUB_API_URL: proxy.url,
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
  });
  return running;
}

test('kill -9 at every step of publishing, then a restart: one branch commit and one pull request (or one push) per approval', async () => {
  running = await startChild({
    DATA_DIR: dataDir,
    GITHUB_API_URL: proxy.url,
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
  });
  const project = await running.api.post('/projects', {
    name: 'Crumb & Co.',
    websiteUrl: site.origin,
  });
  const projectId = project.body.project.id as string;
  const connect = (publishMode: 'pr' | 'direct') =>
    running!.api.put(`/projects/${projectId}/integrations/github`, {
      repository: 'acme/site',
      publishMode,
      credentials: { type: 'token', token: 'ghp_writer' },
    });
  expect((await connect('pr')).status).toBe(200);

  const points: [string, KillPoint][] = [
    ['the commit is made but the branch not moved', { method: 'POST', path: /\/git\/commits$/ }],
    [
      'the branch is moved but no pull request opened',
      { method: 'PATCH', path: /\/git\/refs\/heads(\/|%2F)inkstream/ },
    ],
    ['the pull request is opened but not recorded', { method: 'POST', path: /\/pulls$/ }],
  ];
  for (const [index, [, point]] of points.entries()) {
    const articleId = await draft(running.api, projectId, `Crash course number ${index + 1}`);
    const restarted = await approveAndCrash(projectId, articleId, point);
    const open = await articleIn(restarted.api, articleId, ['pr_open'], 20_000);
    expect(github.branchHistory('acme', 'site', open.branch)).toHaveLength(mainLength() + 1);
    expect(pullsFrom(open.branch)).toHaveLength(1);
    expect(open.prNumber).toBe(pullsFrom(open.branch)[0].number);
  }
  expect(github.repository('acme', 'site').pulls.size).toBe(3);

  expect((await connect('direct')).status).toBe(200);
  const articleId = await draft(running.api, projectId, 'Crash course in direct pushes');
  const before = mainLength();
  const restarted = await approveAndCrash(projectId, articleId, {
    method: 'PATCH',
    path: /\/git\/refs\/heads(\/|%2F)main/,
  });
  const merged = await articleIn(restarted.api, articleId, ['merged'], 20_000);
  expect(mainLength()).toBe(before + 1);
  expect(github.fileAt('acme', 'site', 'main', merged.path)?.toString('utf8')).toBe(merged.content);
}, 90_000);

test("kill -9 while the site's build is read, then a restart: the build is recorded once", async () => {
  const project = await running!.api.post('/projects', {
    name: 'Build & Co.',
    websiteUrl: site.origin,
  });
  const projectId = project.body.project.id as string;
  expect(
    (
      await running!.api.put(`/projects/${projectId}/integrations/github`, {
        repository: 'acme/site',
        credentials: { type: 'token', token: 'ghp_writer' },
      })
    ).status,
  ).toBe(200);
  const articleId = await draft(running!.api, projectId, 'Crash course in site builds');
  // The first read of a pull request's build after it opens: GitHub answers, the server dies.
  const fired = proxy.arm(
    { method: 'GET', path: /\/commits\/[0-9a-f]{40}\/check-runs/ },
    running!.child,
  );
  expect((await running!.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  await fired;
  expect(await running!.exited).toBeNull();
  running = await startChild({
    DATA_DIR: dataDir,
    GITHUB_API_URL: proxy.url,
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
  });
  const api = running.api;
  const open = await articleIn(api, articleId, ['pr_open'], 20_000);
  await eventually(
    async () => (await api.get(`/articles/${articleId}`)).body.article.build,
    (build) => build !== null,
    { what: 'the build read after the restart', timeoutMs: 30_000 },
  );
  // The read that died is done again; the same build is recorded once, not twice.
  const history = (await api.get(`/articles/${articleId}/history?limit=200`)).body.history as {
    type: string;
  }[];
  expect(history.filter((entry) => entry.type === 'ArticleBuildObserved')).toHaveLength(1);
  expect(open.status).toBe('pr_open');
}, 90_000);

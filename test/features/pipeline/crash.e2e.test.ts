import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite.ts';
import type { StoredEvent } from '../../../src/eventstore/port.ts';
import { EMBEDDED_DB_FILE } from '../../../src/app/stores.ts';
import { eventually } from '../../support/eventually.ts';
import { startTestSite, type TestSite } from '../../support/testSite.ts';

const CHILD = join(import.meta.dirname, '../../support/pipelineChild.ts');
const ARTICLES = 6;

let site: TestSite;
let dataDir: string;
let child: ChildProcess | null = null;
let url = '';
let key = '';
beforeAll(async () => {
  site = await startTestSite();
  dataDir = mkdtempSync(join(tmpdir(), 'inkstream-crash-'));
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await site?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the server process and resolves once it listens (reading the key the first start prints). */
async function start(): Promise<void> {
  const proc = spawn(process.execPath, [CHILD], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      INKSTREAM_ALLOW_PRIVATE_URLS: '1',
      INKSTREAM_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
      OPENAI_API_KEY: '',
      LLM_DELAY_MS: '40',
      // One article's model calls are slow, so the others finish past it and the checkpoint (the low-water mark) stays behind it.
      LLM_SLOW_SUBJECT: '(slow)',
      LLM_SLOW_MS: '600',
      // Restarts are most of this test's time: reuse compiled modules across them.
      NODE_COMPILE_CACHE: join(tmpdir(), 'inkstream-test-compile-cache'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child = proc;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      key ||= /\b(ink_\S+)/.exec(output)?.[1] ?? '';
      const listening = /listening (\S+)/.exec(output);
      if (listening) {
        url = listening[1];
        resolve();
      }
    });
    proc.on('exit', (code) =>
      reject(new Error(`the server exited with ${code} before listening: ${output}`)),
    );
  });
}

async function kill(): Promise<void> {
  const proc = child!;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
  child = null;
}

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function allEvents(): Promise<StoredEvent[]> {
  const store = openSqliteEventStore(join(dataDir, EMBEDDED_DB_FILE));
  try {
    return await store.readAll();
  } finally {
    await store.close();
  }
}

const count = (events: readonly StoredEvent[], stream: string, type: string) =>
  events.filter((e) => e.stream === stream && e.type === type).length;

type Progress = { calls: Record<string, number>; events: Record<string, number> };

/** What the process has done so far: model calls started (from the log) and events recorded. */
async function progress(): Promise<Progress> {
  const calls: Record<string, number> = {};
  const events: Record<string, number> = {};
  for (const call of readCalls()) calls[call.method] = (calls[call.method] ?? 0) + 1;
  for (const event of await allEvents()) events[event.type] = (events[event.type] ?? 0) + 1;
  return { calls, events };
}

function readCalls(): Array<{ method: string; subject: string; at: number }> {
  try {
    return readFileSync(join(dataDir, 'llm-calls.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/** Kills the process as soon as it has got this far (mid-step, or with outcomes recorded but not yet checkpointed), then restarts it. */
async function killWhen(what: string, reached: (p: Progress) => boolean): Promise<void> {
  await eventually(progress, reached, { what, timeoutMs: 30_000, maxIntervalMs: 10 });
  await kill();
  await start();
}

const at = (p: Progress, kind: 'calls' | 'events', name: string) => p[kind][name] ?? 0;

test('kill -9 at varied moments, restarted each time: every article of two projects drafts once, every revision lands once, and nothing is done twice', async () => {
  await start();
  const projectIds: string[] = [];
  for (const name of ['Crumb', 'Crust'])
    projectIds.push((await api('POST', '/projects', { name, websiteUrl: site.origin })).project.id);
  const articleIds: string[] = [];
  for (let i = 0; i < ARTICLES; i++) {
    const title = `Crash article ${i}${i === 0 ? ' (slow)' : ''}: bakery ordering`;
    const topic = (
      await api('POST', `/projects/${projectIds[i % 2]}/topics`, {
        title,
        keyword: 'bakery ordering',
      })
    ).topic;
    articleIds.push((await api('POST', `/topics/${topic.id}/write`)).article.id);
  }
  await killWhen('research under way', (p) => at(p, 'calls', 'researchArticle') >= 1);
  await killWhen('some research recorded', (p) => at(p, 'events', 'ArticleResearched') >= 2);
  await killWhen('a first draft recorded', (p) => at(p, 'events', 'ArticleDrafted') >= 1);
  await killWhen('most drafts recorded', (p) => at(p, 'events', 'ArticleDrafted') >= 4);
  const drafted = async () =>
    Promise.all(
      articleIds.map((id) => api('GET', `/articles/${id}`).then((r) => r.article.status)),
    );
  expect(
    await eventually(drafted, (statuses) => statuses.every((s: string) => s === 'draft'), {
      timeoutMs: 30_000,
      what: 'every draft',
    }),
  ).toEqual(articleIds.map(() => 'draft'));

  const instructions = articleIds
    .slice(0, 3)
    .flatMap((_, i) => [
      `Make article ${i} shorter.`,
      `Add a section about pickup slots for article ${i}.`,
    ]);
  for (const [n, instruction] of instructions.entries())
    await api('POST', `/articles/${articleIds[Math.floor(n / 2)]}/revise`, { instruction });
  await killWhen('a first revision recorded', (p) => at(p, 'events', 'ArticleRevised') >= 1);
  const versions = async () =>
    Promise.all(
      articleIds
        .slice(0, 3)
        .map((id) => api('GET', `/articles/${id}`).then((r) => r.article.version)),
    );
  await eventually(versions, (list) => list.every((v: number) => v === 3), {
    timeoutMs: 30_000,
    what: 'every revision',
  });
  await kill();

  const events = await allEvents();
  for (const projectId of projectIds)
    expect(count(events, `project-${projectId}`, 'BrandCrawled')).toBe(1);
  // Work finished past the slow article: the kills fell with a low-water mark behind finished steps.
  const slowResearched = events.find(
    (e) => e.stream === `article-${articleIds[0]}` && e.type === 'ArticleResearched',
  )!;
  expect(
    events.filter((e) => e.type === 'ArticleDrafted' && e.position < slowResearched.position)
      .length,
  ).toBeGreaterThan(0);
  for (const [i, id] of articleIds.entries()) {
    const stream = `article-${id}`;
    for (const type of [
      'ArticleQueued',
      'ArticleResearchStarted',
      'ArticleResearched',
      'ArticleDrafted',
    ])
      expect(count(events, stream, type), `${type} of ${id}`).toBe(1);
    expect(count(events, stream, 'ArticleFailed')).toBe(0);
    const revised = events
      .filter((e) => e.stream === stream && e.type === 'ArticleRevised')
      .map((e) => e.data.revisionId);
    expect(revised).toHaveLength(i < 3 ? 2 : 0);
    expect(new Set(revised).size).toBe(revised.length);
  }

  // A step may run again only if the process died before its outcome was recorded, never after.
  const titleOf = (stream: string) =>
    events.find((e) => e.stream === stream && e.type === 'ArticleQueued')!.data.title;
  const recordedAt = new Map<string, number>();
  for (const event of events) {
    const subject =
      event.type === 'ArticleResearched'
        ? `researchArticle:${titleOf(event.stream)}`
        : event.type === 'ArticleDrafted'
          ? `writeArticle:${titleOf(event.stream)}`
          : event.type === 'ArticleRevised'
            ? `reviseArticle:${events.find((e) => e.type === 'ArticleRevisionRequested' && e.data.revisionId === event.data.revisionId)!.data.instruction}`
            : null;
    if (subject) recordedAt.set(subject, Date.parse(event.createdAt));
  }
  const calls = readCalls();
  expect(recordedAt.size).toBe(ARTICLES * 2 + instructions.length);
  for (const [subject, recorded] of recordedAt) {
    const made = calls.filter((call) => `${call.method}:${call.subject}` === subject);
    expect(made.length, subject).toBeGreaterThanOrEqual(1);
    expect(
      made.filter((call) => call.at > recorded),
      `${subject} called again after it was recorded`,
    ).toEqual([]);
  }
}, 120_000); // six cold starts of a server; on a loaded host each phase can take many seconds

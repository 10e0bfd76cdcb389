/**
 * The servers under test, in their own process so the load generator does not share their event
 * loop: Inkstream on the embedded default (rate limit raised), and a bare node:http server that
 * answers every request with the bytes Inkstream returns for GET /api/v1/articles/:id.
 * Talks to the parent over IPC: sends { ready }, answers { cpu } (its CPU time), { profile } (start,
 * or stop and write a CPU profile to `file`), { verify } and { stop }.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '../../src/features/accounts/keys.ts';
import { loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { startServer } from '../../src/app/start.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'ink-bench-api-'));
const running = await startServer(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    INKSTREAM_RATE_LIMIT_PER_MINUTE: '1000000000',
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
  }),
  createLogger('silent'),
);
const { platform } = running;
const { key } = await createApiKey(platform, { account: 'bench' });

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${running.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const project = JSON.parse(
  (await call('POST', '/projects', { name: 'Bench', websiteUrl: 'https://bench.example' })).text,
).project;
const topic = JSON.parse(
  (
    await call('POST', `/projects/${project.id}/topics`, {
      title: 'A realistic article',
      keyword: 'realistic',
    })
  ).text,
).topic;
const written = JSON.parse((await call('POST', `/topics/${topic.id}/write`)).text).article;
// The POST benchmark adds topics to a project of its own, so every TopicCreated there is one of its 201s.
const topicsProject = JSON.parse(
  (await call('POST', '/projects', { name: 'Topics', websiteUrl: 'https://topics.example' })).text,
).project;

// The pipeline's offline writer drafts the article, as it would for a user; wait (bounded) for it.
const draftDeadline = Date.now() + 60_000;
let article = JSON.parse((await call('GET', `/articles/${written.id}`)).text).article;
while (article.status !== 'draft') {
  if (Date.now() > draftDeadline || article.status === 'failed')
    throw new Error(`the article did not reach draft (status ${article.status})`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  article = JSON.parse((await call('GET', `/articles/${written.id}`)).text).article;
}
const articleBody = Buffer.from((await call('GET', `/articles/${article.id}`)).text);

const bare: Server = createServer((_req, res) => {
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': articleBody.length,
  });
  res.end(articleBody);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));

const profiler = new Session();
profiler.connect();

process.on(
  'message',
  async (message: { type: 'cpu' | 'profile' | 'verify' | 'stop'; file?: string }) => {
    if (message.type === 'cpu') {
      const usage = process.cpuUsage();
      process.send!({ type: 'cpu', micros: usage.user + usage.system });
    } else if (message.type === 'profile') {
      if (message.file) {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(message.file, JSON.stringify(profile));
      } else {
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      }
      process.send!({ type: 'profiled' });
    } else if (message.type === 'verify') {
      const created = (
        await platform.eventStore.readAll({ categories: ['topic'], maxCount: 10_000_000 })
      ).filter(
        (event) => event.type === 'TopicCreated' && event.data.projectId === topicsProject.id,
      );
      const topics = created.map((event) => ({
        topicId: event.data.topicId,
        title: event.data.title,
      }));
      process.send!({
        type: 'verified',
        topics,
        distinctEventIds: new Set(created.map((event) => event.id)).size,
      });
    } else {
      await new Promise((resolve) => bare.close(resolve));
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
      process.send!({ type: 'stopped' }, () => process.exit(0));
    }
  },
);
process.send!({
  type: 'ready',
  inkstreamUrl: running.url,
  bareUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`,
  key,
  topicsProjectId: topicsProject.id,
  articleId: article.id,
  articleBytes: articleBody.length,
});

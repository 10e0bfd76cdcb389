/**
 * The scale bench's side of a server process (serverProcess.ts): start it on a DATA_DIR, ask it
 * questions over IPC, GET from its API, wait until its start-up crawls are over, stop it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, get as httpGet } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export type Server = {
  child: ChildProcess;
  url: string;
  key: string;
  coldStartMs: number;
  ask<T>(message: object, answer: string): Promise<T>;
};

/** `key`: the bench's API key, made by the first start when empty. */
export async function startServer(dir: string, key: string): Promise<Server> {
  const started = performance.now();
  const child = fork(join(import.meta.dirname, 'serverProcess.ts'), [], {
    execArgv: ['--expose-gc'],
    env: { ...process.env, DATA_DIR: dir, BENCH_KEY: key },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    child.once('message', resolve as (message: unknown) => void);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const ask = <T>(message: object, answer: string) =>
    new Promise<T>((resolve) => {
      const listener = (reply: Record<string, unknown>) => {
        if (answer in reply) {
          child.off('message', listener);
          resolve(reply[answer] as T);
        }
      };
      child.on('message', listener);
      child.send(message);
    });
  return { child, url: ready.url, key: ready.key, coldStartMs: performance.now() - started, ask };
}

export async function stopServer(server: Server): Promise<void> {
  await server.ask({ stop: true }, 'stopped');
  await new Promise((resolve) => server.child.once('exit', resolve));
}

/** One keep-alive connection per server, through node:http: lighter on the bench's own heap than fetch, whose GC pauses are in every time it measures. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** `ms`: from sending the request to the response's last byte (parsing it is the bench's work, not the server's). */
export function get(server: Server, path: string): Promise<{ ms: number; body: any }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpGet(
      `${server.url}/api/v1${path}`,
      { agent, headers: { authorization: `Bearer ${server.key}` } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('error', reject);
        response.once('end', () => {
          const ms = performance.now() - started;
          const text = Buffer.concat(chunks).toString();
          if (response.statusCode !== 200)
            return reject(new Error(`GET ${path}: ${response.statusCode} ${text}`));
          resolve({ ms, body: JSON.parse(text) });
        });
      },
    );
    request.once('error', reject);
  });
}

/**
 * Until no project's crawl is pending: the first start on a seeded store crawls every project's
 * site (their names do not resolve, so each ends failed), which is start-up work, not the idle
 * cost of a read. Then `settleMs` more, for the periodic workers' first passes (a second after
 * start) and the consumers' turns after the crawls' events.
 */
export async function waitUntilCrawled(
  server: Server,
  settleMs = 3_000,
  timeoutMs = 600_000,
): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { body } = await get(server, '/projects?limit=200');
    const pending = (body.projects as { crawl: { status: string } }[]).filter(
      (project) => project.crawl.status === 'pending',
    ).length;
    if (pending === 0) break;
    if (performance.now() - started > timeoutMs)
      throw new Error(`${pending} crawls still pending after ${timeoutMs / 1000} s`);
    await sleep(500);
  }
  await sleep(settleMs);
  return performance.now() - started;
}

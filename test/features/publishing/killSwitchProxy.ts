import type { ChildProcess } from 'node:child_process';
import { startHttpServer, type LocalServer } from '../../support/httpServer.ts';

/**
 * Stands between Inkstream (in a child process) and the fake GitHub: every request is passed on
 * as it is, and when one matches `killAfter` the child is killed with SIGKILL after GitHub has
 * applied the request but before its answer reaches the child, the worst moment for a crash.
 */
export type KillPoint = { method: string; path: RegExp };

export type KillSwitchProxy = LocalServer & {
  url: string;
  arm(point: KillPoint, child: ChildProcess): Promise<void>;
};

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'content-encoding',
]);

export async function startKillSwitchProxy(target: string): Promise<KillSwitchProxy> {
  let armed: { point: KillPoint; child: ChildProcess; fired: () => void } | null = null;
  const server = await startHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([name]) => !HOP_BY_HOP.has(name))
          .map(([name, value]) => [name, String(value)]),
      );
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body });
      const bytes = Buffer.from(await answer.arrayBuffer());
      const trap = armed;
      if (
        trap &&
        req.method === trap.point.method &&
        trap.point.path.test(req.url ?? '') &&
        answer.ok
      ) {
        armed = null;
        trap.child.kill('SIGKILL');
        trap.fired();
        res.destroy();
        return;
      }
      res.writeHead(
        answer.status,
        Object.fromEntries([...answer.headers].filter(([name]) => !HOP_BY_HOP.has(name))),
      );
      res.end(bytes);
    });
  });
  return Object.assign(server, {
    url: server.origin,
    arm(point: KillPoint, child: ChildProcess) {
      return new Promise<void>((fired) => {
        armed = { point, child, fired };
      });
    },
  });
}

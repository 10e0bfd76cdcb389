/**
 * The benchmark's receivers, in their own process so they do not share the sender's CPU: one
 * HTTPS server per port that answers 204 at once, and one that accepts and never answers.
 * Line protocol on stdin: `count` → the number received; `dump` → the receipts as JSON, then reset.
 */
import type { RequestListener } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

const {
  key,
  cert,
  ports: count,
} = JSON.parse(process.argv[2]) as { key: string; cert: string; ports: number };
const receipts: Array<[articleId: string, port: number, atMs: number]> = [];
const now = () => performance.timeOrigin + performance.now();

async function listen(handler: RequestListener): Promise<number> {
  const server = https.createServer({ key, cert, keepAliveTimeout: 30_000 }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const live: number[] = [];
for (let i = 0; i < count; i++) {
  const port: number = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = now();
      const body = Buffer.concat(chunks).toString('utf8');
      const articleId = /"data":\{"id":"([^"]+)"/.exec(body)?.[1] ?? '?';
      receipts.push([articleId, port, at]);
      res.writeHead(204).end();
    });
  });
  live.push(port);
}
const dead = await listen(() => {
  /* never answers */
});

process.stdout.write(`${JSON.stringify({ live, dead })}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'count') process.stdout.write(`${receipts.length}\n`);
  if (line === 'dump') {
    process.stdout.write(`${JSON.stringify(receipts)}\n`);
    receipts.length = 0;
  }
});

// Two app processes on one EventStoreDB + MongoDB: write through one, read through the other,
// kill the lease holder, the other takes over the background work. Needs EVENTSTORE_URL and
// MONGODB_URL; runs on GitHub's runners (.github/workflows/ci.yml), not on machines without the servers.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';

const ROOT = join(import.meta.dirname, '../..');
const DEADLINE_MS = 60_000;
const eventStoreUrl = process.env.EVENTSTORE_URL;
const mongoBase = process.env.MONGODB_URL;
if (!eventStoreUrl || !mongoBase)
  throw new Error('the smoke test needs EVENTSTORE_URL and MONGODB_URL');

const database = `inkstream_smoke_${randomUUID().slice(0, 8)}`;
const mongoUrl = new URL(mongoBase);
mongoUrl.pathname = `/${database}`;
const secretKey = randomBytes(32).toString('base64');

type Replica = { name: string; port: number; child: ChildProcess; output: string[] };

function startReplica(name: string, port: number): Replica {
  const child = spawn(process.execPath, [join(ROOT, 'src/main.ts')], {
    cwd: mkdtempSync(join(tmpdir(), `inkstream-${name}-`)),
    env: {
      ...process.env,
      EVENTSTORE_URL: eventStoreUrl,
      MONGODB_URL: mongoUrl.toString(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      INKSTREAM_SECRET_KEY: secretKey,
      INKSTREAM_LEASE_TTL_MS: '3000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  return { name, port, child, output };
}

async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = await check().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() - started > DEADLINE_MS) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const api = (replica: Replica, key: string, path: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${replica.port}/api/v1${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });

const mongo = await MongoClient.connect(mongoUrl.toString());
const replicas: Replica[] = [];
try {
  const first = startReplica('first', 18081);
  replicas.push(first);
  const key = await until(
    "the first start's API key",
    async () => first.output.join('').match(/\b(ink_[A-Za-z0-9_-]+)/)?.[1],
  );
  const second = startReplica('second', 18082);
  replicas.push(second);
  await until(
    'both replicas to serve',
    async () =>
      ((await api(first, key, '/projects')).ok && (await api(second, key, '/projects')).ok) ||
      undefined,
  );

  const created = await api(first, key, '/projects', {
    method: 'POST',
    body: JSON.stringify({ name: 'Smoke', websiteUrl: 'https://smoke.example' }),
  });
  if (created.status !== 201)
    throw new Error(`creating a project through the first replica answered ${created.status}`);
  const { project } = (await created.json()) as { project: { id: string } };
  await until(
    'the second replica to read the project written through the first',
    async () => (await api(second, key, `/projects/${project.id}`)).ok || undefined,
  );
  console.log(`ok: ${project.id} written through ${first.name}, read through ${second.name}`);

  const leaseHolderPid = async () => {
    const lease = await mongo
      .db()
      .collection<{ _id: string; holder: string; expiresAt: number }>('leases')
      .findOne({ _id: 'background' });
    return lease && lease.expiresAt > Date.now() ? Number(lease.holder.split(':')[1]) : undefined;
  };
  const leaderPid = await until('a lease holder', leaseHolderPid);
  const leader = replicas.find((replica) => replica.child.pid === leaderPid);
  const follower = replicas.find((replica) => replica !== leader);
  if (!leader || !follower)
    throw new Error(`the lease is held by pid ${leaderPid}, neither replica`);
  leader.child.kill('SIGKILL');
  await until('the follower to take the lease over', async () =>
    (await leaseHolderPid()) === follower.child.pid ? true : undefined,
  );
  const after = await api(follower, key, '/projects', {
    method: 'POST',
    body: JSON.stringify({ name: 'After', websiteUrl: 'https://after.example' }),
  });
  if (after.status !== 201) throw new Error(`the survivor answered ${after.status} to a write`);
  console.log(
    `ok: ${leader.name} killed, ${follower.name} holds the background lease and takes writes`,
  );
} catch (error) {
  for (const replica of replicas)
    console.error(`--- ${replica.name} output ---\n${replica.output.join('')}`);
  throw error;
} finally {
  for (const replica of replicas) replica.child.kill('SIGTERM');
  await mongo
    .db()
    .dropDatabase()
    .catch(() => {});
  await mongo.close();
}
